// The doctor's extensions beside the list: dashboard counters and today's schedule (docs/product.md,
// Screens and routes 'Doctor dashboard'), the patients a consultation may be about, and the data
// download.
import { and, asc, count, countDistinct, eq, gt, gte, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, doctors, notifications, users } from "../db/schema.ts";
import { ACTIVE_STATUSES } from "../appointment/booking.ts";
import { appointmentWith, serializeAppointment } from "../appointment/serialize.ts";
import { clinicDays, clinicToday } from "../time.ts";
import { listAllConsultations } from "../consultation/data.ts";
import { auditPatients } from "../audit.ts";
import { serializeForDoctor } from "../appointment/doctor-list.ts";
import { loadDoctorProfile } from "./profile.ts";
import type { DoctorDashboard, PatientOption } from "../../contract/doctor-profile.ts";
import { notFound } from "../http.ts";

/**
 * What every page of a doctor shows besides its own content (docs/performance.md): the verification
 * state, the admin's reason when rejected, and the bell's count of unseen notices, in one statement.
 */
const summaryOfDoctor = prepared("doctor_summary", (db) =>
  db
    .select({
      verification: doctors.verification,
      rejectionReason: doctors.rejectionReason,
      count: sql<number>`(${db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, sql.placeholder("userId")), isNull(notifications.seenAt)))})`.mapWith(
        Number,
      ),
    })
    .from(doctors)
    .where(eq(doctors.userId, sql.placeholder("userId"))),
);

export async function doctorSummary(db: Db, userId: string) {
  const [row] = await summaryOfDoctor(db, { userId });
  if (!row) throw notFound("Doctor not found");
  // The reason is the admin's word to a rejected doctor only.
  return {
    count: row.count,
    verification: row.verification,
    rejectionReason: row.verification === "rejected" ? row.rejectionReason : null,
  };
}

/** Start and end instants of today in the clinic zone. */
export const clinicDayBounds = (now = new Date()) => clinicDays(clinicToday(now));

export async function doctorDashboard(db: Db, doctorId: string, now = new Date()): Promise<DoctorDashboard> {
  const { start, end } = clinicDayBounds(now);
  const mine = eq(appointments.doctorId, doctorId);
  const today = and(mine, gte(appointments.startsAt, start), lt(appointments.startsAt, end));
  const [[{ todayCount }], [{ upcomingCount }], [{ totalPatients }], [{ completedToday }], todayRows] =
    await Promise.all([
      db
        .select({ todayCount: count() })
        .from(appointments)
        .where(and(today, ne(appointments.status, "cancelled"))),
      db
        .select({ upcomingCount: count() })
        .from(appointments)
        .where(and(mine, gt(appointments.startsAt, now), inArray(appointments.status, [...ACTIVE_STATUSES]))),
      db
        .select({ totalPatients: countDistinct(appointments.patientId) })
        .from(appointments)
        .where(mine),
      db
        .select({ completedToday: count() })
        .from(appointments)
        .where(and(today, eq(appointments.status, "completed"))),
      db
        .select({ id: appointments.id, patientId: appointments.patientId })
        .from(appointments)
        .where(and(today, ne(appointments.status, "cancelled")))
        .orderBy(asc(appointments.startsAt), asc(appointments.id)),
    ]);
  await auditPatients(
    db,
    doctorId,
    todayRows.map((r) => r.patientId),
    "read",
    "appointment_list",
  );
  const schedule = await serializeForDoctor(
    db,
    doctorId,
    todayRows.map((r) => r.id),
  );
  return {
    todayAppointments: todayCount,
    upcomingAppointments: upcomingCount,
    totalPatients,
    completedToday,
    todaySchedule: schedule,
  };
}

/** Distinct patients (not deleted) with an appointment assigned to the doctor, by name. */
export async function doctorPatients(db: Db, doctorId: string): Promise<PatientOption[]> {
  const rows = await db
    .selectDistinct({ id: users.id, username: users.username })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .where(and(eq(appointments.doctorId, doctorId), isNull(users.deletedAt)))
    .orderBy(asc(users.username), asc(users.id));
  await auditPatients(
    db,
    doctorId,
    rows.map((r) => r.id),
    "read",
    "patient_list",
  );
  return rows;
}

/** Everything the product holds about the doctor's practice, as JSON. */
export async function exportDoctorData(db: Db, doctorId: string) {
  const profile = await loadDoctorProfile(db, doctorId);
  const rows = await db.query.appointments.findMany({
    where: (a) => eq(a.doctorId, doctorId),
    orderBy: (a) => [asc(a.startsAt), asc(a.id)],
    with: appointmentWith,
  });
  const consultations = await listAllConsultations(db, doctorId);
  await auditPatients(
    db,
    doctorId,
    [...rows.map((r) => r.patientId), ...consultations.map((c) => c.patientId)],
    "read",
    "doctor_export",
  );
  return {
    exportedAt: new Date().toISOString(),
    profile,
    appointments: rows.map(serializeAppointment),
    consultations,
  };
}
