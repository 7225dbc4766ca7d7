import { Router } from "express";
import type { ApiDeps } from "../app.ts";

export function specialityRouter(_deps: ApiDeps) {
  const router = Router();
  return router;
}
