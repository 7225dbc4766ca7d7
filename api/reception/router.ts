// /reception (docs/product.md, The front desk): receptionists only, each limited to the doctors the
// admin assigned. A patient, a doctor or an admin is refused with 403; a doctor not served is 403
// doctor_not_served, another doctor's appointment 404.
import { Router } from "express";
import {
  daySheetQuery,
  deskBookingBody,
  deskPatientBody,
  deskPatientSearchQuery,
  deskRescheduleBody,
  deskStatusBody,
  walkInBody,
} from "../../contract/reception.ts";
import type { DaySheet, DeskPatientList } from "../../contract/reception.ts";
import { auditPatients } from "../audit.ts";
import { bookDirect } from "../appointment/booking.ts";
import type { ApiDeps } from "../deps.ts";
import { authenticate, currentUser, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { clinicToday } from "../time.ts";
import { recordArrival, recordWalkIn, rescheduleByDesk, setStatusByDesk } from "./appointments.ts";
import { dayAppointment, daySheet, requireServed, servedDoctorNames, servedDoctors } from "./day.ts";
import { createDeskPatient, openDeskPatient, requirePatient, searchDeskPatients, unlockDeskClaim } from "./patients.ts";

export function receptionRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  router.use(authenticate(db, "receptionist"));
  const served = (req: Parameters<typeof currentUser>[0]) => servedDoctors(db, currentUser(req).id);

  router.post("/patients", idempotent(db), async (req, res) => {
    const body = parse(deskPatientBody, req.body);
    res.status(201).json(await createDeskPatient(db, currentUser(req), body));
  });

  router.get("/patients", async (req, res) => {
    const query = parse(deskPatientSearchQuery, req.query);
    const patients = await searchDeskPatients(db, currentUser(req), await served(req), query);
    res.json({ patients } satisfies DeskPatientList);
  });

  router.get("/patients/:id", async (req, res) => {
    res.json(await openDeskPatient(db, currentUser(req), await served(req), String(req.params.id)));
  });

  // After checking the person's identity in person: 5 wrong dates of birth locked their sign-up.
  router.post("/patients/:id/claim-unlock", idempotent(db), async (req, res) => {
    res.json(await unlockDeskClaim(db, currentUser(req), await served(req), String(req.params.id)));
  });

  router.post("/appointments", idempotent(db), async (req, res) => {
    const body = parse(deskBookingBody, req.body);
    const desk = currentUser(req);
    requireServed(await served(req), body.doctorId);
    const patientId = await requirePatient(db, body.patientId);
    const id = await bookDirect(
      db,
      mailer,
      patientId,
      { doctorId: body.doctorId, type: body.type, date: body.date, time: body.time, specialityId: body.specialityId },
      // A patient's booking limits do not bind the desk (docs/product.md, The front desk).
      null,
      { deskId: desk.id },
    );
    await auditPatients(db, desk.id, [patientId], "create", "appointment", id);
    res.status(201).json(await dayAppointment(db, id));
  });

  router.put("/appointments/:id", idempotent(db), async (req, res) => {
    const id = String(req.params.id);
    const desk = currentUser(req);
    if (req.body?.status !== undefined) {
      const { status } = parse(deskStatusBody, req.body);
      res.json(await setStatusByDesk(db, mailer, desk, await served(req), id, status));
      return;
    }
    const { date, time } = parse(deskRescheduleBody, req.body);
    res.json(await rescheduleByDesk(db, mailer, desk, await served(req), id, date, time));
  });

  router.post("/appointments/:id/arrival", idempotent(db), async (req, res) => {
    res.json(await recordArrival(db, mailer, currentUser(req), await served(req), String(req.params.id)));
  });

  router.post("/walk-ins", idempotent(db), async (req, res) => {
    const body = parse(walkInBody, req.body);
    res.status(201).json(await recordWalkIn(db, mailer, currentUser(req), await served(req), body));
  });

  router.get("/day", async (req, res) => {
    const { date = clinicToday() } = parse(daySheetQuery, req.query);
    const doctors = await servedDoctorNames(db, currentUser(req).id);
    const appointments = await daySheet(
      db,
      doctors.map((d) => d.id),
      date,
    );
    res.json({ date, doctors, appointments } satisfies DaySheet);
  });

  return router;
}
