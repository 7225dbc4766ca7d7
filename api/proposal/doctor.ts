import { Router } from "express";
import type { ApiDeps } from "../app.ts";

export function proposalDoctorRouter(_deps: ApiDeps) {
  const router = Router();
  return router;
}
