// The doctor's appointment lists (GET /doctor/doctor_appointments; docs/product.md, The API): 'assigned to
// me' (category direct, or absent) and 'open requests' (category random) with the doctor's own
// proposal on each, so the card says 'Proposed' instead of 'Propose'.
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, proposals } from "../db/schema.ts";
import { ACTIVE_STATUSES } from "./booking.ts";
import { cardsByIds, pageOfAppointments, serializeCard, serializeInOrder } from "./list.ts";
import { appointmentNotFound } from "./patient-data.ts";
import { pageInfo } from "../query.ts";
import { missedInLastYear } from "./no-shows.ts";
import type { DoctorListQuery } from "../../contract/appointment.ts";
import { isUuid } from "../../contract/fields.ts";
import { auditPatients } from "../audit.ts";
import { answerableRequests, isOpenRequestFor, loadDoctorAccess, OPEN_STATUSES, type DoctorAccess } from "./access.ts";

// The doctor's list page and schedule: the cards with the doctor's own proposal on each, whether
// the doctor already holds the slot with another active appointment (an open request then cannot
// take their proposal), and how many of the patient's appointments, with any doctor, were marked
// missed in the last 12 months (docs/product.md, No-shows), in the cards' one statement. That
// figure only on the doctor's own appointments: null on an open request, whose patient is not
// theirs (yet), so a doctor browsing requests learns nothing of strangers' records.
const doctorCards = prepared("doctor_cards_by_ids", (db) =>
  cardsByIds(db, {
    myProposal: sql<MyProposal>`(select json_build_object('id', mine.id, 'status', mine.status) from ${proposals} mine where mine.doctor_id = ${sql.placeholder("doctorId")} and mine.appointment_id = ${appointments.id})`,
    slotHeld: sql<boolean>`exists (select from ${appointments} held where held.starts_at = ${appointments.startsAt} and held.doctor_id = ${sql.placeholder("doctorId")} and ${inArray(sql`held.status`, [...ACTIVE_STATUSES])} and not held.walk_in and held.id <> ${appointments.id})`,
    patientMissed: sql<
      number | null
    >`case when ${appointments.doctorId} = ${sql.placeholder("doctorId")} then ${missedInLastYear(appointments.patientId)} end`,
  }),
);

type MyProposal = Pick<typeof proposals.$inferSelect, "id" | "status"> | null;
const doctorsSide = (row: { myProposal: MyProposal; slotHeld: boolean; patientMissed: number | null }) => ({
  myProposal: row.myProposal,
  slotHeld: row.slotHeld,
  patientMissed: row.patientMissed,
});

/** Serializes appointments in the order of `ids`, each with `myProposal`, `slotHeld` and `patientMissed`. */
export async function serializeForDoctor(db: Db, doctorId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return serializeInOrder(await doctorCards(db, { ids, doctorId }), ids, doctorsSide);
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
  await auditPatients(
    db,
    doctorId,
    page.map((r) => r.patientId),
    "read",
    "appointment_list",
  );
  return {
    appointments: await serializeForDoctor(
      db,
      doctorId,
      page.map((r) => r.id),
    ),
    ...pageInfo(total, q.page, q.limit),
  };
}

/**
 * One appointment the doctor may see: assigned to them (any status), or an open request of their
 * specialities still taking proposals. Anything else is a 404, never data.
 */
export async function getDoctorAppointment(db: Db, doctor: DoctorAccess, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const [row] = await doctorCards(db, { ids: [id], doctorId: doctor.id });
  const visible =
    row &&
    (row.doctorId === doctor.id ||
      (doctor.verification === "verified" &&
        isOpenRequestFor(doctor, row) &&
        (OPEN_STATUSES as readonly string[]).includes(row.status)));
  if (!visible) throw appointmentNotFound();
  await auditPatients(db, doctor.id, [row.patientId], "read", "appointment", id);
  return serializeCard(row, doctorsSide);
}
