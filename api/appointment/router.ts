// The patient's side of /appointment (docs/product.md, The API): list, one, book or request, cancel, and
// the free-slot extension GET /appointment/slots. Doctors' PUT /appointment/{id} lives in
// doctor-actions.ts, mounted after this router.
import { Router } from "express";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import { eq } from "drizzle-orm";
import { doctors, users } from "../db/schema.ts";
import { authenticate, badRequest, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { bookDirect, createOpenRequest, isCalendarDate, slotsOfDay } from "./booking.ts";
import { findAppointment, serializeAppointment } from "./serialize.ts";
import { appointmentListQuery, cancelByPatient, getAppointment, listAppointments } from "./patient-data.ts";

const slotsQuery = z.object({
  doctorId: z.uuid("A doctor is required"),
  date: z.string("A valid date is required").regex(/^\d{4}-\d{2}-\d{2}$/, "A valid date is required"),
});


export function appointmentRouter({ db, mailer }: ApiDeps) {
  const router = Router();

  router.get("/slots", authenticate(db), async (req, res) => {
    const { doctorId, date } = parse(slotsQuery, req.query);
    if (!isCalendarDate(date)) throw badRequest("A valid date is required", "invalid_date");
    const [doctor] = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.id))
      .where(eq(users.id, doctorId));
    if (!doctor) throw notFound("Doctor not found");
    res.json(await slotsOfDay(db, doctorId, date));
  });

  router.get("/", authenticate(db, "patient", "admin"), async (req, res) => {
    res.json(await listAppointments(db, currentUser(req), parse(appointmentListQuery, req.query)));
  });

  router.post("/", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
    const patientId = currentUser(req).id;
    const id = body.category === "random" ? await createOpenRequest(db, patientId, body) : await bookDirect(db, mailer, patientId, body);
    res.status(201).json(serializeAppointment((await findAppointment(db, id))!));
  });

  // Doctors skip to doctor-actions.ts (mounted next), which owns what a doctor may read.
  router.get("/:id", authenticate(db), (req, _res, next) => next(req.user?.role === "doctor" ? "router" : undefined));
  router.get("/:id", async (req, res) => {
    res.json(await getAppointment(db, currentUser(req), String(req.params.id)));
  });

  router.patch("/:id", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    // A patient may only cancel (docs/product.md, The API); doctors change status with PUT.
    if (req.body?.status !== "cancelled") throw badRequest("Only cancellation is possible here", "invalid_status");
    const appointment = await cancelByPatient(db, mailer, currentUser(req).id, String(req.params.id));
    res.json({ message: "Appointment cancelled successfully!", appointment });
  });

  return router;
}
