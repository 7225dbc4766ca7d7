// What the front desk changes on an appointment of a doctor it serves (docs/product.md, The front
// desk and Appointment states): a reschedule or a cancellation for the patient, the arrival, a
// no-show once the start has passed, and the walk-in, an appointment of today that holds no slot.
// Another doctor's appointment is a 404, as for a doctor.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { isUuid } from "../../contract/fields.ts";
import type { z } from "zod";
import type { walkInBody } from "../../contract/reception.ts";
import { auditPatients } from "../audit.ts";
import type { Db } from "../db/index.ts";
import { appointments, doctors, users } from "../db/schema.ts";
import { ApiError, badRequest, conflict, forbidden, type AuthUser } from "../http.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { markSeenOn } from "../notification/data.ts";
import { tellOfChange } from "../notifications.ts";
import { specialitiesOf } from "../speciality/badges.ts";
import { consultationFee } from "../speciality/fee.ts";
import { clinicParts, clinicToday, parseSlot } from "../time.ts";
import { requireBookable } from "../appointment/availability.ts";
import { claimingSlot } from "../appointment/booking.ts";
import { appointmentNotFound, hasStarted, startedAlready } from "../appointment/patient-data.ts";
import { dayAppointment } from "./day.ts";
import { requirePatient } from "./patients.ts";

/** Locks an appointment of a doctor the desk serves for the rest of the transaction; anything else is a 404. */
async function lockServed(tx: Db, served: string[], id: string) {
  if (!isUuid(id) || served.length === 0) throw appointmentNotFound();
  const [row] = await tx
    .select({
      doctorId: appointments.doctorId,
      patientId: appointments.patientId,
      status: appointments.status,
      startsAt: appointments.startsAt,
      walkIn: appointments.walkIn,
      arrivedAt: appointments.arrivedAt,
    })
    .from(appointments)
    .where(and(eq(appointments.id, id), inArray(appointments.doctorId, served)))
    .for("update");
  if (!row) throw appointmentNotFound();
  return row;
}

const alreadyFinal = (status: string) => conflict(`An appointment that is ${status} changes no more`, "already_final");
const isFinal = (status: string) => status === "completed" || status === "cancelled" || status === "missed";

/** After the change: the day's view of it, the patient's access log told, the outboxes woken. */
async function changed(db: Db, mailer: OutboxMailer, desk: AuthUser, id: string, patientId: string) {
  mailer.wake();
  await auditPatients(db, desk.id, [patientId], "update", "appointment", id);
  return dayAppointment(db, id);
}

/** PUT {date, time}: a free slot of the same doctor, by the one rule, the notice aside. */
export async function rescheduleByDesk(
  db: Db,
  mailer: OutboxMailer,
  desk: AuthUser,
  served: string[],
  id: string,
  date: string,
  time: string,
) {
  const startsAt = parseSlot(date, time);
  const patientId = await db.transaction(async (tx) => {
    const row = await lockServed(tx, served, id);
    if (isFinal(row.status)) throw alreadyFinal(row.status);
    if (row.walkIn || row.arrivedAt) {
      throw conflict("A patient already at the clinic is not rescheduled", "invalid_transition");
    }
    if (row.startsAt.getTime() === startsAt.getTime()) {
      throw badRequest("The new date and time must differ from the current ones", "unchanged");
    }
    await requireBookable(tx, row.doctorId!, startsAt, { noticeExempt: true, moving: id });
    await claimingSlot(() =>
      tx.update(appointments).set({ startsAt, updatedAt: new Date() }).where(eq(appointments.id, id)),
    );
    await tellOfChange(tx, mailer, id, "rescheduledAtDesk", {
      actorId: desk.id,
      to: row.patientId,
      previousStartsAt: row.startsAt,
    });
    return row.patientId;
  });
  return changed(db, mailer, desk, id, patientId);
}

/**
 * PUT {status}: cancelled for the patient (before the start), or missed once the start has passed
 * and the patient has not come (docs/product.md, Appointment states).
 */
export async function setStatusByDesk(
  db: Db,
  mailer: OutboxMailer,
  desk: AuthUser,
  served: string[],
  id: string,
  to: "cancelled" | "missed",
  now = new Date(),
) {
  const patientId = await db.transaction(async (tx) => {
    const row = await lockServed(tx, served, id);
    if (isFinal(row.status)) throw alreadyFinal(row.status);
    if (to === "cancelled") {
      if (row.status !== "pending" && row.status !== "confirmed") {
        throw conflict(`An appointment that is ${row.status} cannot become cancelled`, "invalid_transition");
      }
      if (hasStarted(row.startsAt, now) || row.arrivedAt) throw startedAlready();
    } else {
      if (row.status !== "confirmed" || row.arrivedAt) {
        throw conflict(`An appointment that is ${row.status} cannot become missed`, "invalid_transition");
      }
      if (!hasStarted(row.startsAt, now)) throw conflict("This appointment has not started yet", "not_started");
    }
    await tx.update(appointments).set({ status: to, updatedAt: new Date() }).where(eq(appointments.id, id));
    if (to === "cancelled") {
      await tellOfChange(tx, mailer, id, "cancelledAtDesk", { actorId: desk.id, to: row.patientId });
    } else {
      await markSeenOn(tx, desk.id, id);
    }
    return row.patientId;
  });
  return changed(db, mailer, desk, id, patientId);
}

/**
 * POST /arrival: the patient of today's confirmed appointment is in the waiting room. Recording it
 * again keeps the first arrival (a double click, a retried request).
 */
export async function recordArrival(
  db: Db,
  mailer: OutboxMailer,
  desk: AuthUser,
  served: string[],
  id: string,
  now = new Date(),
) {
  const patientId = await db.transaction(async (tx) => {
    const row = await lockServed(tx, served, id);
    if (row.arrivedAt) return row.patientId;
    if (isFinal(row.status)) throw alreadyFinal(row.status);
    if (row.status !== "confirmed") {
      throw conflict("Only a confirmed appointment can be checked in", "invalid_transition");
    }
    if (clinicParts(row.startsAt).date !== clinicToday(now)) {
      throw conflict("This appointment is not today", "not_today");
    }
    await tx.update(appointments).set({ arrivedAt: now, updatedAt: now }).where(eq(appointments.id, id));
    return row.patientId;
  });
  return changed(db, mailer, desk, id, patientId);
}

/**
 * POST /walk-ins: a patient who came without booking, seen today by a doctor the desk serves: an
 * appointment confirmed, arrived now and started at its arrival, marked as a walk-in, so it holds
 * none of the bookable slots (the unique index and the availability rule leave walk-ins out).
 */
export async function recordWalkIn(
  db: Db,
  mailer: OutboxMailer,
  desk: AuthUser,
  served: string[],
  body: z.output<typeof walkInBody>,
  now = new Date(),
) {
  if (!served.includes(body.doctorId)) throw forbidden("You do not serve this doctor", "doctor_not_served");
  const patientId = await requirePatient(db, body.patientId);
  const [doctor] = await db
    .select({
      id: users.id,
      cityId: users.cityId,
      countryId: users.countryId,
      verification: doctors.verification,
      dutyHospital: doctors.dutyHospital,
    })
    .from(users)
    .innerJoin(doctors, eq(doctors.userId, users.id))
    .where(and(eq(users.id, body.doctorId), isNull(users.deletedAt)));
  if (!doctor) throw new ApiError(404, "Doctor not found", "doctor_not_found");
  if (doctor.verification !== "verified") throw forbidden("This doctor is not yet verified", "doctor_unverified");
  const badges = (await specialitiesOf(db, [doctor.id])).get(doctor.id) ?? [];
  const inPerson = body.type === "in-person";
  const [row] = await db
    .insert(appointments)
    .values({
      patientId,
      doctorId: doctor.id,
      specialityId: badges.length === 1 ? badges[0].id : null,
      status: "confirmed",
      type: body.type,
      category: "direct",
      startsAt: now,
      arrivedAt: now,
      walkIn: true,
      bookedBy: desk.id,
      place: inPerson ? doctor.dutyHospital : null,
      cityId: inPerson ? doctor.cityId : null,
      countryId: inPerson ? doctor.countryId : null,
      price: consultationFee(badges),
    })
    .returning({ id: appointments.id });
  return changed(db, mailer, desk, row.id, patientId);
}
