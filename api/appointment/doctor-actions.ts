// The doctor's side of /appointment/{id} (docs/product.md, The API), mounted after the patients' router:
// PUT with {status} confirms, cancels or completes; PUT with {date, time} reschedules (the
// contract's doctorStatusBody and rescheduleBody).
import { Router } from "express";
import { doctorStatusBody, rescheduleBody } from "../../contract/appointment.ts";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { loadDoctorAccess } from "./access.ts";
import { changeStatusByDoctor, rescheduleByDoctor } from "./doctor-changes.ts";

export function appointmentDoctorRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const doctorOnly = authenticate(db, "doctor");

  router.put("/:id", doctorOnly, idempotent(db), async (req, res) => {
    const id = String(req.params.id);
    const change = req.body?.status !== undefined ? parse(doctorStatusBody, req.body) : parse(rescheduleBody, req.body);
    const doctor = await loadDoctorAccess(db, currentUser(req).id);
    const appointment =
      "status" in change
        ? await changeStatusByDoctor(db, mailer, doctor, id, change.status)
        : await rescheduleByDoctor(db, mailer, doctor, id, change.date, change.time);
    res.json(appointment);
  });

  return router;
}
