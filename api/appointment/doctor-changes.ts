// What the assigned doctor may change on an appointment (docs/product.md, Appointment states):
//   pending -> confirmed, pending -> cancelled, confirmed -> completed or missed once the start has
//   passed; reschedule while pending or confirmed to a slot that differs from the current one and
//   that the availability rule lets the doctor take (availability.ts).
// Everything else is a 409: already_final from a final status (completed, cancelled, missed),
// invalid_transition otherwise; confirmed -> cancelled belongs to the patient.
import { eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments } from "../db/schema.ts";
import { FINAL_STATUSES, type AppointmentStatus } from "../../contract/constants.ts";
import { isUuid } from "../../contract/fields.ts";
import { badRequest, conflict } from "../http.ts";
import { tellOfChange, type AppointmentChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { auditPatients } from "../audit.ts";
import { requireVerified, type DoctorAccess } from "./access.ts";
import { markSeenOn } from "../notification/data.ts";
import { claimingSlot } from "./booking.ts";
import { requireBookable } from "./availability.ts";
import { appointmentNotFound, hasStarted, startedAlready } from "./patient-data.ts";
import { findAppointment, serializeAppointment } from "./serialize.ts";
import { parseSlot } from "../time.ts";

type Status = AppointmentStatus;

/** Target status -> the one status it may come from. */
const DOCTOR_TRANSITIONS: Partial<Record<Status, Status>> = {
  confirmed: "pending",
  cancelled: "pending",
  completed: "confirmed",
  missed: "confirmed",
};

/** Targets that record what happened at the appointment, so only once its start has passed. */
const AFTER_START: ReadonlySet<Status> = new Set(["completed", "missed"]);
const isFinal = (status: Status) => (FINAL_STATUSES as readonly Status[]).includes(status);

const invalidTransition = (from: Status, to: string) =>
  conflict(`An appointment that is ${from} cannot become ${to}`, "invalid_transition");

/** Locks the doctor's own appointment for the rest of the transaction; anyone else's is a 404. */
async function lockAssigned(tx: Db, doctor: DoctorAccess, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const [row] = await tx
    .select({
      doctorId: appointments.doctorId,
      patientId: appointments.patientId,
      status: appointments.status,
      startsAt: appointments.startsAt,
      startedAt: appointments.startedAt,
    })
    .from(appointments)
    .where(eq(appointments.id, id))
    .for("update");
  if (!row || row.doctorId !== doctor.id) throw appointmentNotFound();
  return row;
}

/** What the patient is told of a status the doctor sets (completing or marking missed tells nobody). */
const CHANGE_OF: Partial<Record<Status, AppointmentChange>> = {
  confirmed: "confirmed",
  cancelled: "cancelledByDoctor",
};

/** `to` is any status (contract/appointment.ts doctorStatusBody); which ones a doctor may reach is decided here. */
export async function changeStatusByDoctor(
  db: Db,
  mailer: OutboxMailer,
  doctor: DoctorAccess,
  id: string,
  to: Status,
  now = new Date(),
) {
  requireVerified(doctor);
  const patientId = await db.transaction(async (tx) => {
    const row = await lockAssigned(tx, doctor, id);
    if (isFinal(row.status)) throw conflict(`An appointment that is ${row.status} changes no more`, "already_final");
    if (DOCTOR_TRANSITIONS[to] !== row.status) throw invalidTransition(row.status, to);
    // A patient called in from the queue (startedAt) is being seen: the visit can be completed early.
    const calledIn = to === "completed" && row.startedAt !== null;
    if (AFTER_START.has(to) && !hasStarted(row.startsAt, now) && !calledIn) {
      throw conflict("This appointment has not started yet", "not_started");
    }
    if (to === "cancelled" && hasStarted(row.startsAt, now)) throw startedAlready();
    await tx.update(appointments).set({ status: to, updatedAt: new Date() }).where(eq(appointments.id, id));
    const change = CHANGE_OF[to];
    if (change) await tellOfChange(tx, mailer, id, change, { actorId: doctor.id, to: row.patientId });
    else await markSeenOn(tx, doctor.id, id);
    return row.patientId;
  });
  mailer.wake();
  await auditPatients(db, doctor.id, [patientId], "update", "appointment", id);
  return serializeAppointment((await findAppointment(db, id))!);
}

/** `date` is a real calendar day and `time` a slot's text (contract/appointment.ts rescheduleBody). */
export async function rescheduleByDoctor(
  db: Db,
  mailer: OutboxMailer,
  doctor: DoctorAccess,
  id: string,
  date: string,
  time: string,
) {
  requireVerified(doctor);
  const startsAt = parseSlot(date, time);
  const patientId = await db.transaction(async (tx) => {
    const row = await lockAssigned(tx, doctor, id);
    if (row.status !== "pending" && row.status !== "confirmed") {
      throw conflict(`An appointment that is ${row.status} cannot be rescheduled`, "invalid_transition");
    }
    if (row.startsAt.getTime() === startsAt.getTime()) {
      throw badRequest("The new date and time must differ from the current ones", "unchanged");
    }
    await requireBookable(tx, doctor.id, startsAt, { moving: id });
    await claimingSlot(() =>
      tx.update(appointments).set({ startsAt, updatedAt: new Date() }).where(eq(appointments.id, id)),
    );
    await tellOfChange(tx, mailer, id, "rescheduled", {
      actorId: doctor.id,
      to: row.patientId,
      previousStartsAt: row.startsAt,
    });
    return row.patientId;
  });
  mailer.wake();
  await auditPatients(db, doctor.id, [patientId], "update", "appointment", id);
  return serializeAppointment((await findAppointment(db, id))!);
}
