// The doctor's appointment lists (GET /doctor/doctor_appointments; docs/product.md, The API): 'assigned to
// me' (category direct, or absent) and 'open requests' (category random) with the doctor's own
// proposal on each, so the card says 'Proposed' instead of 'Propose'.
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, proposals } from "../db/schema.ts";
import { ACTIVE_STATUSES } from "./booking.ts";
import { pageOfAppointments, serializeInOrder } from "./list.ts";
import { appointmentNotFound } from "./patient-data.ts";
import { pageInfo } from "../query.ts";
import type { DoctorListQuery } from "../../contract/appointment.ts";
import { isUuid } from "../../contract/fields.ts";
import { findAppointment, serializeAppointment } from "./serialize.ts";
import { auditPatients } from "../audit.ts";
import { answerableRequests, isOpenRequestFor, loadDoctorAccess, OPEN_STATUSES, type DoctorAccess } from "./access.ts";


const anyOfIds = sql`any(${sql.placeholder("ids")}::uuid[])`;

// The doctor's list page runs these two at each page: prepared once (api/db/prepared.ts).
const proposalsOn = prepared("doctor_proposals_on", (db) =>
  db
    .select({ id: proposals.id, status: proposals.status, appointmentId: proposals.appointmentId })
    .from(proposals)
    .where(and(eq(proposals.doctorId, sql.placeholder("doctorId")), sql`${proposals.appointmentId} = ${anyOfIds}`)),
);

/** This doctor's proposal on each of the given appointments (null when none). */
async function myProposals(db: Db, doctorId: string, ids: string[]) {
  const mine = new Map<string, Pick<typeof proposals.$inferSelect, "id" | "status">>();
  if (ids.length === 0) return mine;
  const rows = await proposalsOn(db, { doctorId, ids });
  for (const r of rows) mine.set(r.appointmentId, { id: r.id, status: r.status });
  return mine;
}

const held = alias(appointments, "held");

const heldSlotsOf = prepared("doctor_held_slots", (db) =>
  db
    .select({ id: appointments.id })
    .from(appointments)
    .innerJoin(
      held,
      and(
        eq(held.startsAt, appointments.startsAt),
        eq(held.doctorId, sql.placeholder("doctorId")),
        inArray(held.status, [...ACTIVE_STATUSES]),
        ne(held.id, appointments.id),
      ),
    )
    .where(sql`${appointments.id} = ${anyOfIds}`),
);

/** Which of these appointments fall on a slot the doctor already holds with another active one. */
async function onHeldSlots(db: Db, doctorId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await heldSlotsOf(db, { doctorId, ids });
  return new Set(rows.map((r) => r.id));
}

/**
 * Serializes appointments in the order of `ids`, each with `myProposal` and `slotHeld` (the doctor
 * is busy then, so an open request cannot take their proposal).
 */
export function serializeForDoctor(db: Db, doctorId: string, ids: string[]) {
  return serializeInOrder(db, ids, async (ids) => {
    const [mine, busy] = await Promise.all([myProposals(db, doctorId, ids), onHeldSlots(db, doctorId, ids)]);
    return (id) => ({ myProposal: mine.get(id) ?? null, slotHeld: busy.has(id) });
  });
}

/**
 * Assigned appointments newest slot first (like the patient's list); open requests soonest first,
 * since the nearest ones need an answer first.
 */
export async function listDoctorAppointments(db: Db, doctorId: string, q: DoctorListQuery) {
  const open = q.category === "random";
  // Only the open requests depend on the doctor's verification and specialities: the appointments
  // assigned to them (the page's default tab) are theirs whatever those are, so the statement that
  // reads them is not sent for that list.
  const { page, total } = await pageOfAppointments(db, {
    conditions: [
      open ? answerableRequests(await loadDoctorAccess(db, doctorId)) : eq(appointments.doctorId, doctorId),
      q.status ? eq(appointments.status, q.status) : undefined,
      q.city ? eq(appointments.cityId, q.city) : undefined,
      q.country ? eq(appointments.countryId, q.country) : undefined,
    ],
    otherPartyId: appointments.patientId,
    search: q.search,
    orderBy: [open ? asc(appointments.startsAt) : desc(appointments.startsAt), asc(appointments.id)],
    page: q.page,
    limit: q.limit,
  });
  await auditPatients(db, doctorId, page.map((r) => r.patientId), "read", "appointment_list");
  return {
    appointments: await serializeForDoctor(db, doctorId, page.map((r) => r.id)),
    ...pageInfo(total, q.page, q.limit),
  };
}

/**
 * One appointment the doctor may see: assigned to them (any status), or an open request of their
 * specialities still taking proposals. Anything else is a 404, never data.
 */
export async function getDoctorAppointment(db: Db, doctor: DoctorAccess, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const row = await findAppointment(db, id);
  const visible =
    row &&
    (row.doctorId === doctor.id ||
      (doctor.verification === "verified" && isOpenRequestFor(doctor, row) && (OPEN_STATUSES as readonly string[]).includes(row.status)));
  if (!visible) throw appointmentNotFound();
  await auditPatients(db, doctor.id, [row.patientId], "read", "appointment", id);
  const [mine, busy] = await Promise.all([myProposals(db, doctor.id, [id]), onHeldSlots(db, doctor.id, [id])]);
  return { ...serializeAppointment(row), myProposal: mine.get(id) ?? null, slotHeld: busy.has(id) };
}
