import { Router } from "express";
import type { ApiDeps } from "../app.ts";

export function patientRouter(_deps: ApiDeps) {
  const router = Router();
  return router;
}
