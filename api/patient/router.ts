// /patient (docs/product.md, The API): the patient's own profile, plus the extensions
// GET /patient/export (data download), GET /patient/notifications (bell count) and GET
// /patient/summary (what every signed-in page shows, in one call: docs/performance.md).
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { exportPatientData, loadProfile, patientAttentionCount, patientDashboard, updateProfile } from "./profile.ts";

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

  // The bell count, and with ?dashboard=1 the home's cards: one call and one token check per page.
  router.get("/summary", patientOnly, async (req, res) => {
    const userId = currentUser(req).id;
    const [count, dashboard] = await Promise.all([
      patientAttentionCount(db, userId),
      req.query.dashboard === "1" ? patientDashboard(db, userId) : null,
    ]);
    res.json(dashboard ? { count, dashboard } : { count });
  });

  return router;
}
