// The doctor's own side of /doctor (docs/product.md, The API), mounted after the patients' GET /doctor
// search: profile, appointment lists, and the extensions dashboard, notifications (bell count),
// summary (bell count and verification state),
// patients (for the consultation form) and export (data download).
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { loadDoctorAccess } from "../appointment/access.ts";
import { doctorListQuery } from "../../contract/appointment.ts";
import { doctorProfileUpdateBody, type DoctorHome } from "../../contract/doctor-profile.ts";
import { getDoctorAppointment, listDoctorAppointments } from "../appointment/doctor-list.ts";
import { bellOf, unseenCount } from "../notification/data.ts";
import { doctorDashboard, doctorPatients, doctorSummary, exportDoctorData } from "./overview.ts";
import { loadDoctorProfile, updateDoctorProfile } from "./profile.ts";

export function doctorRouter({ db }: ApiDeps) {
  const router = Router();
  const doctorOnly = authenticate(db, "doctor");

  router.get("/doctor-info", doctorOnly, async (req, res) => {
    res.json(await loadDoctorProfile(db, currentUser(req).id));
  });

  router.put("/me", doctorOnly, idempotent(db), async (req, res) => {
    res.json(await updateDoctorProfile(db, currentUser(req).id, parse(doctorProfileUpdateBody, req.body)));
  });

  router.get("/doctor_appointments", doctorOnly, async (req, res) => {
    const query = parse(doctorListQuery, req.query);
    res.json(await listDoctorAppointments(db, currentUser(req).id, query));
  });

  router.get("/doctor_appointments/:id", doctorOnly, async (req, res) => {
    res.json(await getDoctorAppointment(db, await loadDoctorAccess(db, currentUser(req).id), String(req.params.id)));
  });

  router.get("/dashboard", doctorOnly, async (req, res) => {
    res.json(await doctorDashboard(db, currentUser(req).id));
  });

  router.get("/notifications", doctorOnly, async (req, res) => {
    res.json({ count: await unseenCount(db, currentUser(req).id) });
  });

  // The bell count (with ?notifications=<page> the bell's list) and the verification state every
  // doctor page shows (its banner, its action buttons), read at each page so an admin's decision
  // shows at once: one call per page.
  router.get("/summary", doctorOnly, async (req, res) => {
    const userId = currentUser(req).id;
    // The bell's page asks for its list too, which comes with its own count (that page marked seen first).
    const [summary, bell] = await Promise.all([
      doctorSummary(db, userId),
      req.query.notifications === undefined ? null : bellOf(db, userId, req.query),
    ]);
    res.json({ ...summary, ...bell } satisfies DoctorHome);
  });

  router.get("/patients", doctorOnly, async (req, res) => {
    res.json(await doctorPatients(db, currentUser(req).id));
  });

  router.get("/export", doctorOnly, async (req, res) => {
    res.set("Content-Disposition", 'attachment; filename="my-practice-data.json"');
    res.json(await exportDoctorData(db, currentUser(req).id));
  });

  return router;
}
