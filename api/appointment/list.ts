// What the patient's and the doctor's appointment lists share: one page of ids searched by the other
// party's name or the speciality, and appointments serialized in a given order with what each side adds.
import { and, count, eq, getTableColumns, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/index.ts";
import { appointments, cities, countries, doctors, specialities, users } from "../db/schema.ts";
import { containsPattern } from "../query.ts";
import { serializeAppointment } from "./serialize.ts";

const otherParty = alias(users, "other_party");

/**
 * One page of appointment ids (with their patient) and the total. The other party is the user on
 * `otherPartyId` (the doctor for a patient, the patient for a doctor): a search matches their name
 * (not once the account is deleted) or the speciality, in English or French.
 */
export async function pageOfAppointments(
  db: Db,
  q: {
    conditions: (SQL | undefined)[];
    otherPartyId: PgColumn;
    search?: string;
    orderBy: SQL[];
    page: number;
    limit: number;
  },
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

const patient = alias(users, "patient");
const doctor = alias(users, "doctor");

/**
 * Every list page and the patient home load their cards by id in one flat statement, prepared once
 * (api/db/prepared.ts), the ids an array placeholder, with what the viewer's side adds (`extra`,
 * subqueries on the card's own row). A relational query (`with: appointmentWith`) built a JSON
 * document per card out of nested subqueries and drizzle took each apart again: on the doctor's
 * page it was the costliest statement, and the viewer's additions were two statements more
 * (docs/performance.md).
 */
export function cardsByIds<E extends Record<string, SQL.Aliased | SQL>>(db: Db, extra: E) {
  return db
    .select({
      ...getTableColumns(appointments),
      patient: {
        id: patient.id,
        username: patient.username,
        avatarUrl: patient.avatarUrl,
        deletedAt: patient.deletedAt,
      },
      doctor: { id: doctor.id, username: doctor.username, avatarUrl: doctor.avatarUrl, deletedAt: doctor.deletedAt },
      doctorProfile: { contact: doctors.contact, dutyHospital: doctors.dutyHospital },
      doctorSpecialities: sql<
        [number, string, string][]
      >`coalesce((select json_agg(json_build_array(s.id, s.name, s.name_fr) order by s.name) from doctor_specialities ds join specialities s on s.id = ds.speciality_id where ds.doctor_id = ${appointments.doctorId}), '[]')`,
      speciality: {
        id: specialities.id,
        name: specialities.name,
        nameFr: specialities.nameFr,
        icon: specialities.icon,
      },
      city: { id: cities.id, name: cities.name },
      country: { id: countries.id, name: countries.name, code: countries.code },
      ...extra,
    })
    .from(appointments)
    .leftJoin(patient, eq(patient.id, appointments.patientId))
    .leftJoin(doctor, eq(doctor.id, appointments.doctorId))
    .leftJoin(doctors, eq(doctors.userId, appointments.doctorId))
    .leftJoin(specialities, eq(specialities.id, appointments.specialityId))
    .leftJoin(cities, eq(cities.id, appointments.cityId))
    .leftJoin(countries, eq(countries.id, appointments.countryId))
    .where(sql`${appointments.id} = any(${sql.placeholder("ids")}::uuid[])`);
}

type Card = Awaited<ReturnType<typeof cardsByIds<Record<never, never>>>>[number];

/**
 * One card of `cardsByIds` in the wire's shape (serialize.ts, which also takes the rows of the
 * relational `appointmentWith`), with what `extra` picks of its row for the viewer's side.
 */
export function serializeCard<R extends Card, E extends object>(row: R, extra: (row: R) => E) {
  const { doctorProfile, doctorSpecialities, doctor, ...rest } = row;
  const specialities = doctorSpecialities.map(([id, name, nameFr]) => ({ speciality: { id, name, nameFr } }));
  const loaded = {
    ...rest,
    doctor: doctor && { ...doctor, doctor: doctorProfile && { ...doctorProfile, specialities } },
  };
  return { ...serializeAppointment(loaded), ...extra(row) };
}

/** The cards in the order of `ids`; one gone meanwhile is left out. */
export function serializeInOrder<R extends Card, E extends object>(rows: R[], ids: string[], extra: (row: R) => E) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [serializeCard(row, extra)] : [];
  });
}
