import { Router } from "express";
import type { ApiDeps } from "../app.ts";

export function consultationRouter(_deps: ApiDeps) {
  const router = Router();
  return router;
}
