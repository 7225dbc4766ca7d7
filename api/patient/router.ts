// /patient (SPEC.md section 7): the patient's own profile, plus the extensions
// GET /patient/export (data download) and GET /patient/notifications (bell count).
import { Router } from "express";
import type { ApiDeps } from "../app.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { exportPatientData, loadProfile, patientAttentionCount, updateProfile } from "./profile.ts";

export function patientRouter({ db }: ApiDeps) {
  const router = Router();
  const patientOnly = authenticate(db, "patient");

  router.get("/me", patientOnly, async (req, res) => {
    res.json(await loadProfile(db, currentUser(req).id));
  });

  router.put("/me", patientOnly, idempotent(db), async (req, res) => {
    res.json(await updateProfile(db, currentUser(req).id, req.body));
  });

  router.get("/export", patientOnly, async (req, res) => {
    res.set("Content-Disposition", 'attachment; filename="my-health-data.json"');
    res.json(await exportPatientData(db, currentUser(req).id));
  });

  router.get("/notifications", patientOnly, async (req, res) => {
    res.json({ count: await patientAttentionCount(db, currentUser(req).id) });
  });

  return router;
}
