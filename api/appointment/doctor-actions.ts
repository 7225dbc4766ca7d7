// The doctor's side of /appointment/{id} (docs/product.md, The API), mounted after the patients' router:
// PUT with {status} confirms, cancels or completes; PUT with {date, time} reschedules. GET lets the
// doctor open one appointment they may see (the patients' router hands doctors over to here).
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { loadDoctorAccess } from "./access.ts";
import { getDoctorAppointment } from "./doctor-list.ts";
import { changeStatusByDoctor, rescheduleByDoctor } from "./doctor-changes.ts";

export function appointmentDoctorRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const doctorOnly = authenticate(db, "doctor");

  router.get("/:id", doctorOnly, async (req, res) => {
    res.json(await getDoctorAppointment(db, await loadDoctorAccess(db, currentUser(req).id), String(req.params.id)));
  });

  router.put("/:id", doctorOnly, idempotent(db), async (req, res) => {
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
    const doctor = await loadDoctorAccess(db, currentUser(req).id);
    const id = String(req.params.id);
    const appointment =
      body.status !== undefined
        ? await changeStatusByDoctor(db, mailer, doctor, id, body.status)
        : await rescheduleByDoctor(db, mailer, doctor, id, body.date, body.time);
    res.json(appointment);
  });

  return router;
}
