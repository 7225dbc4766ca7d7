// /patient (docs/product.md, The API): the patient's own profile, plus the extensions
// GET /patient/export (data download), GET /patient/notifications (bell count), GET
// /patient/summary (what every signed-in page shows, in one call: docs/performance.md) and GET
// /patient/access-log (who saw my data).
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { bellOf, unseenCount } from "../notification/data.ts";
import type { PatientHome, UnseenNotifications } from "../../contract/patient.ts";
import { accessLog } from "./access-log.ts";
import { exportPatientData, loadProfile, patientDashboard, updateProfile } from "./profile.ts";

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

  router.get("/access-log", patientOnly, async (req, res) => {
    res.json(await accessLog(db, currentUser(req).id, req.query));
  });

  router.get("/notifications", patientOnly, async (req, res) => {
    res.json({ count: await unseenCount(db, currentUser(req).id) } satisfies UnseenNotifications);
  });

  // The bell count, with ?dashboard=1 the home's cards, with ?notifications=<page> the bell's
  // list: one call and one token check per page.
  router.get("/summary", patientOnly, async (req, res) => {
    const userId = currentUser(req).id;
    if (req.query.dashboard !== "1") return void res.json((await bellOf(db, userId, req.query)) satisfies PatientHome);
    // The home's cards come with the bell count; the bell's list, if asked for too, with its own.
    const [home, bell] = await Promise.all([
      patientDashboard(db, userId),
      req.query.notifications === undefined ? null : bellOf(db, userId, req.query),
    ]);
    res.json({ ...(bell ?? { count: home.unseen }), dashboard: home.dashboard } satisfies PatientHome);
  });

  return router;
}
