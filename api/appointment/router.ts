// The patient's side of /appointment (docs/product.md, The API): list, one, book or request, cancel, and
// the free-slot extension GET /appointment/slots; one appointment for whoever may see it. Doctors'
// PUT /appointment/{id} lives in doctor-actions.ts, mounted after this router. Bodies and queries
// are the contract's (contract/appointment.ts).
import { Router } from "express";
import type { ApiDeps } from "../deps.ts";
import { eq } from "drizzle-orm";
import {
  directBookingBody,
  openRequestBody,
  patientChangeBody,
  patientListQuery,
  slotsQuery,
} from "../../contract/appointment.ts";
import { doctors, users } from "../db/schema.ts";
import { authenticate, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { loadDoctorAccess } from "./access.ts";
import { bookDirect, createOpenRequest } from "./booking.ts";
import { BOOKING_LIMIT_DEFAULTS } from "../../config.ts";
import { slotsOfDay } from "./availability.ts";
import { getDoctorAppointment } from "./doctor-list.ts";
import { findAppointment, serializeAppointment } from "./serialize.ts";
import { cancelByPatient, getAppointment, listAppointments } from "./patient-data.ts";

export function appointmentRouter({ db, mailer, bookingLimits = BOOKING_LIMIT_DEFAULTS }: ApiDeps) {
  const router = Router();

  router.get("/slots", authenticate(db), async (req, res) => {
    const { doctorId, date } = parse(slotsQuery, req.query);
    const [doctor] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.id))
      .where(eq(users.id, doctorId));
    if (!doctor) throw notFound("Doctor not found");
    res.json(await slotsOfDay(db, doctorId, date));
  });

  router.get("/", authenticate(db, "patient", "admin"), async (req, res) => {
    res.json(await listAppointments(db, currentUser(req), parse(patientListQuery, req.query)));
  });

  router.post("/", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    const patientId = currentUser(req).id;
    const id =
      req.body?.category === "random"
        ? await createOpenRequest(db, patientId, parse(openRequestBody, req.body))
        : await bookDirect(db, mailer, patientId, parse(directBookingBody, req.body), bookingLimits);
    res.status(201).json(serializeAppointment((await findAppointment(db, id))!));
  });

  // A doctor sees what their access allows (doctor-list.ts); a patient their own; an admin any.
  router.get("/:id", authenticate(db), async (req, res) => {
    const user = currentUser(req);
    const id = String(req.params.id);
    res.json(
      user.role === "doctor"
        ? await getDoctorAppointment(db, await loadDoctorAccess(db, user.id), id)
        : await getAppointment(db, user, id),
    );
  });

  router.patch("/:id", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    // A patient may only cancel (docs/product.md, The API); doctors change status with PUT.
    parse(patientChangeBody, req.body);
    const appointment = await cancelByPatient(db, mailer, currentUser(req).id, String(req.params.id));
    res.json({ message: "Appointment cancelled successfully!", appointment });
  });

  return router;
}
