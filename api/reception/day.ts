// The day at the clinic (docs/product.md, The front desk): what the desk and the doctor's queue read
// of an appointment (time, patient's name and phone, status and the day's timestamps, never a reason
// or a record of care), and which doctors a receptionist serves.
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DayAppointment } from "../../contract/reception.ts";
import type { AppointmentStatus, DayState } from "../../contract/constants.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import type { Db } from "../db/index.ts";
import { appointments, staffDoctors, users } from "../db/schema.ts";
import { forbidden } from "../http.ts";
import { clinicDays, clinicParts } from "../time.ts";

/** The doctors this receptionist serves (the admin's list). */
export async function servedDoctors(db: Db, staffId: string): Promise<string[]> {
  const rows = await db
    .select({ doctorId: staffDoctors.doctorId })
    .from(staffDoctors)
    .where(eq(staffDoctors.staffId, staffId));
  return rows.map((r) => r.doctorId);
}

/** The doctors this receptionist serves, by name (the day sheet's sections). */
export async function servedDoctorNames(db: Db, staffId: string): Promise<{ id: string; username: string }[]> {
  return db
    .select({ id: users.id, username: users.username })
    .from(staffDoctors)
    .innerJoin(users, eq(users.id, staffDoctors.doctorId))
    .where(eq(staffDoctors.staffId, staffId))
    .orderBy(asc(users.username), asc(users.id));
}

/** 403 unless the receptionist serves this doctor. */
export function requireServed(served: string[], doctorId: string) {
  if (!served.includes(doctorId)) throw forbidden("You do not serve this doctor", "doctor_not_served");
}

/** The day's state in FHIR's Appointment.status words (docs/product.md, The front desk). */
function dayState(a: { status: AppointmentStatus; arrivedAt: Date | null; startedAt: Date | null }): DayState {
  switch (a.status) {
    case "completed":
      return "fulfilled";
    case "missed":
      return "noshow";
    case "cancelled":
      return "cancelled";
    case "confirmed":
      return a.startedAt ? "checked-in" : a.arrivedAt ? "arrived" : "booked";
    default:
      return "pending";
  }
}

const patient = alias(users, "day_patient");
const doctor = alias(users, "day_doctor");

const dayColumns = {
  id: appointments.id,
  startsAt: appointments.startsAt,
  endsAt: appointments.endsAt,
  type: appointments.type,
  status: appointments.status,
  walkIn: appointments.walkIn,
  arrivedAt: appointments.arrivedAt,
  startedAt: appointments.startedAt,
  doctorId: doctor.id,
  doctorName: doctor.username,
  patientId: patient.id,
  patientName: patient.username,
  patientPhone: patient.phone,
  patientDeleted: patient.deletedAt,
};

/** The appointments `where` selects, with their doctor and patient, in the order of `orderBy`. */
export async function dayAppointments(db: Db, where: SQL | undefined, orderBy: SQL[] = []) {
  const rows = await db
    .select(dayColumns)
    .from(appointments)
    .innerJoin(doctor, eq(doctor.id, appointments.doctorId))
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .where(where)
    .orderBy(...orderBy, asc(appointments.startsAt), asc(appointments.id));
  return rows.map((r): DayAppointment => {
    const { date, iso } = clinicParts(r.startsAt);
    return {
      id: r.id,
      date,
      time: iso,
      endTime: clinicParts(r.endsAt).iso,
      type: r.type,
      status: r.status,
      state: dayState(r),
      walkIn: r.walkIn,
      arrivedAt: r.arrivedAt?.toISOString() ?? null,
      startedAt: r.startedAt?.toISOString() ?? null,
      Doctor: { id: r.doctorId, username: r.doctorName },
      Patient: r.patientDeleted
        ? { id: r.patientId, username: DELETED_USER, phone: null }
        : { id: r.patientId, username: r.patientName, phone: r.patientPhone },
    };
  });
}

/** One appointment as the day reads it. */
export async function dayAppointment(db: Db, id: string): Promise<DayAppointment> {
  const [row] = await dayAppointments(db, eq(appointments.id, id));
  return row;
}

/** SQL: the appointment starts on `date` (YYYY-MM-DD) in the clinic's zone. */
export function onDay(date: string): SQL {
  const { start, end } = clinicDays(date);
  return and(gte(appointments.startsAt, start), lt(appointments.startsAt, end)) as SQL;
}

/** The day sheet: every appointment of the doctors served on `date`, by time (a walk-in at its arrival). */
export async function daySheet(db: Db, served: string[], date: string) {
  if (served.length === 0) return [];
  return dayAppointments(db, and(inArray(appointments.doctorId, served), onDay(date)));
}

/** When an arrived patient is due: a booked one at their slot, a walk-in at their arrival. */
export const dueAt = sql<Date>`case when ${appointments.walkIn} then ${appointments.arrivedAt} else ${appointments.startsAt} end`;
