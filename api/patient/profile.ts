// The patient's own data: profile (docs/product.md, Data 'Patient profile'), its update with
// server-side validation, the data download (docs/product.md) and the home's cards.
import { and, asc, count, eq, gt, isNull, notInArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, notifications, patients, users } from "../db/schema.ts";
import { badRequest, notFound, parse } from "../http.ts";
import { phoneChange, profilePhone } from "../phone.ts";
import { appointmentWith, serializeAppointment } from "../appointment/serialize.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import { serializeMany } from "../appointment/patient-data.ts";
import { allAccessEvents } from "./access-log.ts";
import { placeOfUpdate } from "../profile.ts";
import {
  patientProfileUpdateBody,
  type PatientDashboard,
  type PatientExport,
  type PatientProfile,
} from "../../contract/patient.ts";

export async function loadProfile(db: Db, userId: string): Promise<PatientProfile> {
  const user = await db.query.users.findFirst({
    where: (u, { and, eq, isNull }) => and(eq(u.id, userId), isNull(u.deletedAt)),
    with: { country: true, city: true, patient: true },
  });
  if (!user) throw notFound("Profile not found");
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    phone: user.phone,
    address: user.address,
    gender: user.gender,
    dateOfBirth: user.dateOfBirth,
    profession: user.patient?.profession ?? null,
    countryId: user.countryId,
    cityId: user.cityId,
    Country: user.country && { id: user.country.id, name: user.country.name, code: user.country.code },
    City: user.city && { id: user.city.id, name: user.city.name },
    avatarUrl: user.avatarUrl,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt?.toISOString() ?? null,
  };
}

const INVALID_PHONE = "Please enter a valid phone number";

/** Fields left out stay as they are; changing the country drops a city outside it. Validation failures name the field. */
export async function updateProfile(db: Db, userId: string, input: unknown): Promise<PatientProfile> {
  const changes = parse(patientProfileUpdateBody, input);
  await db.transaction(async (tx) => {
    const { countryId, cityId } = await placeOfUpdate(tx, userId, changes);
    const phone = await profilePhone(tx, changes.phone, countryId, () => badRequest(INVALID_PHONE, "invalid_phone"));
    const { profession, countryId: _c, cityId: _ci, ...userFields } = { ...changes, phone };
    await tx
      .update(users)
      .set({ ...userFields, ...phoneChange(phone), countryId, cityId, updatedAt: new Date() })
      .where(eq(users.id, userId));
    if (profession !== undefined) {
      await tx
        .insert(patients)
        .values({ userId, profession })
        .onConflictDoUpdate({ target: patients.userId, set: { profession } });
    }
  });
  return loadProfile(db, userId);
}

/** Everything the product holds about the patient, as JSON (docs/product.md). */
export async function exportPatientData(db: Db, userId: string): Promise<PatientExport> {
  const profile = await loadProfile(db, userId);
  const rows = await db.query.appointments.findMany({
    where: (a, { eq }) => eq(a.patientId, userId),
    orderBy: (a) => [asc(a.startsAt), asc(a.id)],
    with: {
      ...appointmentWith,
      proposals: {
        orderBy: (p) => [asc(p.createdAt)],
        with: { doctor: { columns: { id: true, username: true, deletedAt: true } } },
      },
    },
  });
  return {
    exportedAt: new Date().toISOString(),
    profile,
    appointments: rows.map((row) => ({
      ...serializeAppointment(row),
      proposals: row.proposals.map((p) => ({
        id: p.id,
        status: p.status,
        createdAt: p.createdAt.toISOString(),
        updatedAt: p.updatedAt?.toISOString() ?? null,
        Doctor: { id: p.doctor.id, username: p.doctor.deletedAt ? DELETED_USER : p.doctor.username },
      })),
    })),
    // Who read or changed this data, other than the patient (docs/product.md, Who saw my data).
    accessLog: await allAccessEvents(db, userId),
  };
}

const ahead = and(
  eq(appointments.patientId, sql.placeholder("userId")),
  gt(appointments.startsAt, sql.placeholder("now")),
  notInArray(appointments.status, ["cancelled", "completed"]),
);
const soonest = [asc(appointments.startsAt), asc(appointments.id)];
const confirmedAhead = and(ahead, eq(appointments.status, "confirmed"));
const scalar = (query: SQLWrapper) => sql<number>`(${query})`.mapWith(Number);

// Prepared once (api/db/prepared.ts): the user and the instant are placeholders.
const homeOf = prepared("patient_home", (db) =>
  db
    .select({
      unseen: scalar(
        db
          .select({ n: count() })
          .from(notifications)
          .where(and(eq(notifications.userId, sql.placeholder("userId")), isNull(notifications.seenAt))),
      ),
      total: scalar(
        db
          .select({ n: count() })
          .from(appointments)
          .where(eq(appointments.patientId, sql.placeholder("userId"))),
      ),
      confirmed: scalar(db.select({ n: count() }).from(appointments).where(confirmedAhead)),
      next: sql<string | null>`(${db
        .select({ id: appointments.id })
        .from(appointments)
        .where(ahead)
        .orderBy(...soonest)
        .limit(1)})`,
      // An array of text, which both drivers read as an array of strings (uuid[] is not parsed by every one).
      confirmedIds: sql<string[]>`array(${db
        .select({ id: sql`${appointments.id}::text` })
        .from(appointments)
        .where(confirmedAhead)
        .orderBy(...soonest)
        .limit(3)})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder("userId"))),
);

/**
 * The patient home's cards (docs/performance.md): the earliest appointment still to come that is
 * neither cancelled nor completed, up to three confirmed ones to come, and how many appointments
 * the patient has; with them the bell's count (`unseen`), the other thing the home shows. Only the
 * rows shown are read; the counts are SQL's, and all of it is one statement (each statement costs
 * the embedded database about a millisecond), then the cards' appointments.
 */
export async function patientDashboard(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<{ unseen: number; dashboard: PatientDashboard }> {
  // Placeholders take no column's encoder: the instant is given as an ISO string.
  const [home] = await homeOf(db, { userId, now: now.toISOString() });
  if (!home) throw notFound("Profile not found");
  const next = home.next;
  const ids = [...new Set([...(next ? [next] : []), ...home.confirmedIds])];
  const byId = new Map((await serializeMany(db, ids)).map((a) => [a.id, a]));
  return {
    unseen: home.unseen,
    dashboard: {
      upcoming: (next ? byId.get(next) : undefined) ?? null,
      confirmed: home.confirmedIds.flatMap((id) => byId.get(id) ?? []),
      // Each count says what it counts: confirmed ones still to come, and every appointment.
      confirmedAhead: home.confirmed,
      total: home.total,
    },
  };
}
