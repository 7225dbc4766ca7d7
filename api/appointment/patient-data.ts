// The patient's appointments (docs/product.md, Screens and routes 'my appointments'): the paged list with its tabs
// and filters, one appointment, and cancellation (docs/product.md, Appointment states).
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments, proposals } from "../db/schema.ts";
import { auditPatients } from "../audit.ts";
import { withdrawOpenRequest } from "../notification/data.ts";
import { conflict, notFound, type AuthUser } from "../http.ts";
import { tellOfChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { cardsByIds, pageOfAppointments, serializeCard, serializeInOrder } from "./list.ts";
import { prepared } from "../db/prepared.ts";
import { pageInfo } from "../query.ts";
import type { PatientListQuery } from "../../contract/appointment.ts";
import { isUuid } from "../../contract/fields.ts";
import { findAppointment, serializeAppointment } from "./serialize.ts";

// The patient's list page and home: the cards with the pending proposals on each (the 'Doctor
// Proposals' tab count), in the cards' one statement.
const patientCards = prepared("patient_cards_by_ids", (db) =>
  cardsByIds(db, {
    proposalCount: sql<number>`(select count(*)::int from ${proposals} where ${proposals.appointmentId} = ${appointments.id} and ${proposals.status} = 'pending')`,
  }),
);

const patientsSide = (row: { proposalCount: number }) => ({ proposalCount: row.proposalCount });

/** Loads and serializes appointments by id, keeping the order of `ids`, with proposalCount. */
export async function serializeMany(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return serializeInOrder(await patientCards(db, { ids }), ids, patientsSide);
}

/**
 * A patient's own appointments (an admin sees everyone's), newest slot first: the list mixes past
 * and future, and the latest is what a patient looks for first.
 */
export async function listAppointments(db: Db, viewer: AuthUser, q: PatientListQuery) {
  const { page, total } = await pageOfAppointments(db, {
    conditions: [
      viewer.role === "admin" ? undefined : eq(appointments.patientId, viewer.id),
      q.type ? eq(appointments.type, q.type) : undefined,
      q.status ? eq(appointments.status, q.status) : undefined,
      q.category ? eq(appointments.category, q.category) : undefined,
      q.assigned === "true"
        ? isNotNull(appointments.doctorId)
        : q.assigned === "false"
          ? isNull(appointments.doctorId)
          : undefined,
      q.city ? eq(appointments.cityId, q.city) : undefined,
      q.country ? eq(appointments.countryId, q.country) : undefined,
    ],
    otherPartyId: appointments.doctorId,
    search: q.search,
    orderBy: [desc(appointments.startsAt), desc(appointments.id)],
    page: q.page,
    limit: q.limit,
  });
  if (viewer.role === "admin")
    await auditPatients(
      db,
      viewer.id,
      page.map((r) => r.patientId),
      "read",
      "appointment",
    );
  return {
    appointments: await serializeMany(
      db,
      page.map((r) => r.id),
    ),
    ...pageInfo(total, q.page, q.limit),
  };
}

export const appointmentNotFound = () => notFound("Appointment not found");

/** One appointment: the patient's own (anyone else's is a 404), or any for an admin (audited). */
export async function getAppointment(db: Db, viewer: AuthUser, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const [row] = await patientCards(db, { ids: [id] });
  if (!row || (viewer.role !== "admin" && row.patientId !== viewer.id)) throw appointmentNotFound();
  await auditPatients(db, viewer.id, [row.patientId], "read", "appointment", id);
  return serializeCard(row, patientsSide);
}

const CANCELLABLE = new Set(["pending", "proposed", "confirmed"]);

/** An appointment whose start has passed is history: nobody cancels it any more (docs/forms.md). */
export const hasStarted = (startsAt: Date, now = new Date()) => startsAt.getTime() <= now.getTime();
export const startedAlready = () =>
  conflict("This appointment has already started and can no longer be cancelled", "already_started");

/** The patient cancels their own appointment; pending proposals on it are rejected; its doctor is told. */
export async function cancelByPatient(db: Db, mailer: OutboxMailer, patientId: string, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const told = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        patientId: appointments.patientId,
        doctorId: appointments.doctorId,
        status: appointments.status,
        startsAt: appointments.startsAt,
      })
      .from(appointments)
      .where(eq(appointments.id, id))
      .for("update");
    if (!row || row.patientId !== patientId) throw appointmentNotFound();
    if (!CANCELLABLE.has(row.status)) throw conflict("This appointment cannot be cancelled", "invalid_transition");
    const now = new Date();
    if (hasStarted(row.startsAt, now)) throw startedAlready();
    await tx.update(appointments).set({ status: "cancelled", updatedAt: now }).where(eq(appointments.id, id));
    await tx
      .update(proposals)
      .set({ status: "rejected", updatedAt: now })
      .where(and(eq(proposals.appointmentId, id), eq(proposals.status, "pending")));
    await withdrawOpenRequest(tx, id);
    // An open request has no doctor to tell yet.
    return tellOfChange(tx, mailer, id, "cancelledByPatient", { actorId: patientId, to: row.doctorId });
  });
  if (told) mailer.wake();
  return serializeAppointment((await findAppointment(db, id))!);
}
