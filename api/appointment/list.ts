// What the patient's and the doctor's appointment lists share: one page of ids searched by the other
// party's name or the speciality, and appointments serialized in a given order with what each side adds.
import { and, count, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, specialities, users } from "../db/schema.ts";
import { containsPattern } from "../query.ts";
import { appointmentWith, serializeAppointment } from "./serialize.ts";

const otherParty = alias(users, "other_party");

/**
 * One page of appointment ids (with their patient) and the total. The other party is the user on
 * `otherPartyId` (the doctor for a patient, the patient for a doctor): a search matches their name
 * (not once the account is deleted) or the speciality, in English or French.
 */
export async function pageOfAppointments(
  db: Db,
  q: { conditions: (SQL | undefined)[]; otherPartyId: PgColumn; search?: string; orderBy: SQL[]; page: number; limit: number },
) {
  const conditions = [...q.conditions];
  if (q.search) {
    const pattern = containsPattern(q.search);
    conditions.push(
      or(
        and(isNull(otherParty.deletedAt), ilike(otherParty.username, pattern)),
        ilike(specialities.name, pattern),
        ilike(specialities.nameFr, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const rows = db
    .select({ id: appointments.id, patientId: appointments.patientId })
    .from(appointments)
    .leftJoin(otherParty, eq(otherParty.id, q.otherPartyId))
    .leftJoin(specialities, eq(specialities.id, appointments.specialityId))
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .as("p");
  const total = db
    .select({ total: count() })
    .from(appointments)
    .leftJoin(otherParty, eq(otherParty.id, q.otherPartyId))
    .leftJoin(specialities, eq(specialities.id, appointments.specialityId))
    .where(where);
  // The page and the count in one statement (docs/performance.md, few statements): each is a
  // subquery planned as it was alone (the page's limit still stops its scan or keeps its sort to
  // the top rows). The page comes back as JSON pairs in its order: the aggregate reads the sorted,
  // limited subquery as it comes (an ordering inside the aggregate would need a window over every
  // match, before the limit).
  const [answer] = (
    (await db.execute(
      sql`select (${total}) as total, coalesce((select json_agg(json_build_array(${rows.id}, ${rows.patientId})) from ${rows}), '[]') as page`,
    )) as unknown as { rows: { total: number | string; page: [string, string][] }[] }
  ).rows;
  return { page: answer.page.map(([id, patientId]) => ({ id, patientId })), total: Number(answer.total) };
}

// Every list page and the patient home load their appointments by id: prepared once, the ids an
// array placeholder (api/db/prepared.ts).
const appointmentsByIds = prepared("appointments_by_ids", (db) =>
  db.query.appointments.findMany({ where: (a) => sql`${a.id} = any(${sql.placeholder("ids")}::uuid[])`, with: appointmentWith }),
);

/** Loads and serializes appointments by id, keeping the order of `ids`, each with what `extraFor` adds. */
export async function serializeInOrder<E extends object>(db: Db, ids: string[], extraFor: (ids: string[]) => Promise<(id: string) => E>) {
  if (ids.length === 0) return [];
  const [rows, extra] = await Promise.all([appointmentsByIds(db, { ids }), extraFor(ids)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...serializeAppointment(row), ...extra(id) }] : [];
  });
}
