import { Router } from "express";
import type { ApiDeps } from "../app.ts";

export function appointmentDoctorRouter(_deps: ApiDeps) {
  const router = Router();
  return router;
}
