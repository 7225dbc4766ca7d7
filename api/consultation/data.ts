// Consultation records (docs/product.md, Where we depart from the original screens: real records instead of sample data). A
// doctor writes records about their own patients; only the author and the patient concerned can
// read one, anyone else gets a 404.
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments, consultations, users } from "../db/schema.ts";
import { badRequest, forbidden, notFound, parse, type AuthUser } from "../http.ts";
import {
  consultationCreateBody,
  consultationListQuery,
  consultationUpdateBody,
  type Consultation,
  type ConsultationRecord,
} from "../../contract/consultation.ts";
import { isUuid } from "../../contract/fields.ts";
import { containsPattern, pageInfo } from "../query.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import { clinicParts } from "../time.ts";
import { auditPatients } from "../audit.ts";
import { missedInLastYear } from "../appointment/no-shows.ts";

const consultationNotFound = () => notFound("Consultation not found");

const consultationWith = {
  patient: { columns: { id: true, username: true, avatarUrl: true, deletedAt: true } },
  doctor: { columns: { id: true, username: true, deletedAt: true } },
} as const;

/** With each record, the patient's missed appointments of the last 12 months (docs/product.md, No-shows). */
const consultationExtras = { patientMissed: missedInLastYear(consultations.patientId).as("patient_missed") };

type Loaded = NonNullable<Awaited<ReturnType<typeof loadOne>>>;
function loadOne(db: Db, id: string) {
  return db.query.consultations.findFirst({
    where: (c) => eq(c.id, id),
    with: consultationWith,
    extras: consultationExtras,
  });
}

function serializeRecord(c: Omit<Loaded, "patientMissed">): ConsultationRecord {
  const { date, time } = clinicParts(c.consultedAt);
  return {
    id: c.id,
    patientId: c.patientId,
    patientName: c.patient.deletedAt ? DELETED_USER : c.patient.username,
    patientAvatar: c.patient.deletedAt ? null : c.patient.avatarUrl,
    doctorId: c.doctorId,
    doctorName: c.doctor.deletedAt ? DELETED_USER : c.doctor.username,
    appointmentId: c.appointmentId,
    date,
    time,
    consultedAt: c.consultedAt.toISOString(),
    type: c.type,
    diagnosis: c.diagnosis,
    notes: c.notes,
    prescription: c.prescription,
    status: "completed",
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt?.toISOString() ?? null,
  };
}

const serializeConsultation = (c: Loaded): Consultation => ({ ...serializeRecord(c), patientMissed: c.patientMissed });

/** The viewer's side of a record: the author doctor's records, or the records about a patient. */
const ownedBy = (viewer: AuthUser) =>
  viewer.role === "doctor" ? eq(consultations.doctorId, viewer.id) : eq(consultations.patientId, viewer.id);

async function serializeMany(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db.query.consultations.findMany({
    where: (c) => inArray(c.id, ids),
    with: consultationWith,
    extras: consultationExtras,
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [serializeConsultation(byId.get(id)!)] : []));
}

/** Newest first; search matches the patient's name or the diagnosis, case-insensitively. */
export async function listConsultations(db: Db, viewer: AuthUser, query: unknown) {
  const q = parse(consultationListQuery, query);
  const conditions: (SQL | undefined)[] = [ownedBy(viewer)];
  if (q.search) {
    const pattern = containsPattern(q.search);
    conditions.push(or(ilike(users.username, pattern), ilike(consultations.diagnosis, pattern)));
  }
  const where = and(...conditions);
  const [page, [{ total }]] = await Promise.all([
    db
      .select({ id: consultations.id, patientId: consultations.patientId })
      .from(consultations)
      .innerJoin(users, eq(users.id, consultations.patientId))
      .where(where)
      .orderBy(desc(consultations.consultedAt), asc(consultations.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ total: count() })
      .from(consultations)
      .innerJoin(users, eq(users.id, consultations.patientId))
      .where(where),
  ]);
  await auditPatients(
    db,
    viewer.id,
    page.map((r) => r.patientId),
    "read",
    "consultation_list",
  );
  return {
    consultations: await serializeMany(
      db,
      page.map((r) => r.id),
    ),
    ...pageInfo(total, q.page, q.limit),
  };
}

/** Every record the doctor wrote, oldest first (for the data download: what the doctor wrote, no derived count). */
export async function listAllConsultations(db: Db, doctorId: string) {
  const rows = await db.query.consultations.findMany({
    where: (c) => eq(c.doctorId, doctorId),
    orderBy: (c) => [asc(c.consultedAt), asc(c.id)],
    with: consultationWith,
  });
  return rows.map(serializeRecord);
}

export async function getConsultation(db: Db, viewer: AuthUser, id: string) {
  if (!isUuid(id)) throw consultationNotFound();
  const row = await loadOne(db, id);
  if (!row || (row.doctorId !== viewer.id && row.patientId !== viewer.id)) throw consultationNotFound();
  await auditPatients(db, viewer.id, [row.patientId], "read", "consultation", id);
  return serializeConsultation(row);
}

/** 403 unless the patient has an appointment assigned to this doctor. */
async function requireOwnPatient(db: Db, doctorId: string, patientId: string) {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .where(and(eq(appointments.doctorId, doctorId), eq(appointments.patientId, patientId), eq(users.role, "patient")))
    .limit(1);
  if (!row) throw forbidden("You can only write records about your own patients", "not_your_patient");
}

/** The linked appointment must be this doctor's, with this patient. */
async function requireLinkedAppointment(
  db: Db,
  doctorId: string,
  patientId: string,
  appointmentId: string | null | undefined,
) {
  if (!appointmentId) return;
  const [row] = await db
    .select({ doctorId: appointments.doctorId, patientId: appointments.patientId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (!row || row.doctorId !== doctorId || row.patientId !== patientId) {
    throw badRequest("The appointment must be one of yours with this patient", "invalid_appointment");
  }
}

export async function createConsultation(db: Db, doctorId: string, input: unknown) {
  const v = parse(consultationCreateBody, input);
  await requireOwnPatient(db, doctorId, v.patientId);
  await requireLinkedAppointment(db, doctorId, v.patientId, v.appointmentId);
  const [row] = await db
    .insert(consultations)
    .values({
      doctorId,
      patientId: v.patientId,
      appointmentId: v.appointmentId ?? null,
      type: v.type,
      diagnosis: v.diagnosis,
      notes: v.notes,
      prescription: v.prescription,
      ...(v.consultedAt ? { consultedAt: v.consultedAt } : {}),
    })
    .returning({ id: consultations.id });
  await auditPatients(db, doctorId, [v.patientId], "create", "consultation", row.id);
  return serializeConsultation((await loadOne(db, row.id))!);
}

/** Only the author changes a record; fields left out stay as they are. */
export async function updateConsultation(db: Db, doctorId: string, id: string, input: unknown) {
  if (!isUuid(id)) throw consultationNotFound();
  const [current] = await db
    .select({
      doctorId: consultations.doctorId,
      patientId: consultations.patientId,
      appointmentId: consultations.appointmentId,
    })
    .from(consultations)
    .where(eq(consultations.id, id));
  if (!current || current.doctorId !== doctorId) throw consultationNotFound();
  const v = parse(consultationUpdateBody, input);
  const patientId = v.patientId ?? current.patientId;
  if (patientId !== current.patientId) await requireOwnPatient(db, doctorId, patientId);
  const appointmentId =
    v.appointmentId !== undefined ? v.appointmentId : patientId === current.patientId ? current.appointmentId : null;
  await requireLinkedAppointment(db, doctorId, patientId, appointmentId);
  await db
    .update(consultations)
    .set({
      patientId,
      appointmentId,
      type: v.type,
      diagnosis: v.diagnosis,
      notes: v.notes,
      prescription: v.prescription,
      consultedAt: v.consultedAt,
      updatedAt: new Date(),
    })
    .where(eq(consultations.id, id));
  await auditPatients(db, doctorId, [patientId], "update", "consultation", id);
  return serializeConsultation((await loadOne(db, id))!);
}
