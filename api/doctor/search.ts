// GET /doctor (docs/product.md, The API): the find-a-doctor search. Only verified, not deleted doctors are
// listed (docs/product.md). The page, its doctors' specialities and next free slots
// (api/appointment/availability.ts) and a count that stops at COUNT_CAP
// matches (docs/decisions/0004-capped-directory-count.md) come in one statement; a name or hospital
// search sends one more first, which tells a rare fragment from a common one.
//
// The plan of a search is chosen here, not by the database's planner: an embedded database is never
// analysed, and without statistics PGlite once walked the whole directory for a fragment that matched
// nothing (docs/decisions/0018-doctor-search-plan-chosen-in-code.md). Each statement has a shape that
// leaves the planner one sensible plan.
import { Router } from "express";
import { sql, type SQL } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { authenticate, parse } from "../http.ts";
import { doctorSearchQuery, type DoctorPage, type DoctorSearch } from "../../contract/doctor.ts";
import { containsPattern, pageInfo, rowsOf } from "../query.ts";
import type { SpecialityBadge } from "../speciality/badges.ts";
import { doctorCard, type DoctorRow } from "./card.ts";
import { nextFreeSlotOf, nextFreeSlots, nextSlotOnWire, type KeptSlot } from "../appointment/availability.ts";

/**
 * The count of matching doctors is exact up to here; past it `total` is COUNT_CAP and `totalCapped`
 * is true ("more than 100 doctors found"). Counting every match of a broad search over a national
 * directory costs time in proportion to the matches, and a patient refines a search rather than
 * paging past the tenth page (measured: bench/README.md; decision: docs/decisions/0004).
 */
const COUNT_CAP = 100;
/**
 * A side of a search (names, hospitals) with at most this many trigram matches is rare: its matches
 * are all fetched, then sorted. More, and the fragment is common: the directory is walked in name
 * order, where its matches come soon. The probe reads this many + 1 rows a side, so the threshold is
 * what a common fragment pays before its walk; a walk reads rows only for its candidates, so it costs
 * little more than the index entries it passes (ADR 0018).
 */
const FEW_MATCHES = 100;
/** Directory entries a walk reads at most; past them the search fetches every match instead. */
const WALK_LIMIT = 2_000;
/** The shortest fragment the trigram indexes can look up (shorter ones are searched by a walk). */
const TRIGRAM = 3;

type Row = DoctorRow & {
  specialities: SpecialityBadge[];
  nextSlot: KeptSlot | null;
  total: number;
};

/** The thresholds between the plans; tests lower them to run every plan on a few doctors. */
export interface SearchPlanLimits {
  fewMatches: number;
  walkLimit: number;
}

export async function searchDoctors(
  db: Db,
  q: DoctorSearch,
  countCap = COUNT_CAP,
  { fewMatches, walkLimit }: SearchPlanLimits = { fewMatches: FEW_MATCHES, walkLimit: WALK_LIMIT },
  now = new Date(),
): Promise<DoctorPage> {
  const filters = filtersOf(q);
  const where = and(...filters.user, ...filters.doctor);
  const offset = (q.page - 1) * q.limit;
  let cte: SQL | undefined;
  const page = async (candidates: SQL | undefined, total: SQL) =>
    rowsOf<Row>(await db.execute(sql`${cte ?? sql``}${pageOf(candidates, where, total, q.limit, offset, now)}`));
  let rows: Row[];
  let totalSql: SQL;
  if (!q.search) {
    totalSql = sql`(select count(*)::int from (select 1 from users u join doctors d on d.user_id = u.id where ${where} limit ${countCap + 1}) m)`;
    rows = await page(undefined, totalSql);
  } else {
    const pattern = containsPattern(q.search);
    const listed = and(where, sql`(u.username ilike ${pattern} or d.duty_hospital ilike ${pattern})`);
    // Each side's trigram matches. A subquery of the first FROM item is read once, lazily: the
    // count stops at its cap.
    const byName = sql`select id from users where role = 'doctor' and username ilike ${pattern}`;
    const byHospital = sql`select user_id as id from doctors where duty_hospital ilike ${pattern}`;
    // The listed matches' ids and names, each read once: the name side straight from its trigram
    // scan, where the filters on the user's own row apply; the hospital side's users by id. What
    // lies in the doctor's row (verified, speciality) is checked by `doctorHolds`.
    const matches = sql`select u.id, u.username from (select id, username, role, deleted_at, city_id, country_id from users
        where role = 'doctor' and username ilike ${pattern} offset 0) u where ${and(...filters.user)}
      union all select u.id, u.username from (${byHospital}) h cross join lateral (select u.id, u.username from users u where u.id = h.id and ${and(...filters.user)} offset 0) u`;
    // A doctor found by both sides comes twice: 2 (cap + 1) rows hold at least cap + 1 doctors.
    totalSql = sql`(select least(count(distinct id), ${countCap + 1})::int from (
      select c.id from (${matches}) c cross join lateral (${doctorHolds(sql`c`, filters.doctor)}) x
      limit ${2 * (countCap + 1)}) m)`;
    const probe =
      q.search.length < TRIGRAM
        ? undefined
        : rowsOf<{ names: string[]; hospitals: string[] }>(
            await db.execute(
              sql`select array(${byName} limit ${fewMatches + 1}) as names, array(${byHospital} limit ${fewMatches + 1}) as hospitals`,
            ),
          )[0];
    if (probe && probe.names.length <= fewMatches && probe.hospitals.length <= fewMatches) {
      // Rare: every match is known; the page is read by id.
      const ids = [...new Set([...probe.names, ...probe.hospitals])];
      rows = await page(
        sql`(select unnest(${sql.param(ids)}::uuid[]) as id) c cross join lateral (${listedOne(sql`c.id`, listed)}) x order by x.username, c.id`,
        totalSql,
      );
    } else {
      // Common: the first WALK_LIMIT entries of the name order hold the page when its matches come
      // early (a surname fragment: 'mba'); else every match is read with its name in one scan,
      // sorted, and checked in that order until the page is full (a first-name fragment, whose
      // names make one stretch late in the order: 'yvon'; a common fragment with a rare filter).
      const walk = sql`(select id, username from users where role = 'doctor' and deleted_at is null order by username, id limit ${walkLimit}) c`;
      // When the probe knows every hospital match, an entry is a candidate by its name in the index
      // or its id among those: only candidates read their rows, not each entry of the walk.
      const candidate =
        probe && probe.hospitals.length <= fewMatches
          ? sql`where c.username ilike ${pattern} or c.id = any(${sql.param(probe.hospitals)}::uuid[])`
          : sql``;
      rows = await page(
        sql`${walk} cross join lateral (${listedOne(sql`c.id`, listed)}) x ${candidate} order by c.username, c.id`,
        totalSql,
      );
      if (rows.length < q.limit) {
        // The sorted matches are read once for the page and its count.
        cte = sql`with m as materialized (select id, username from (${matches}) c group by id, username) `;
        const checked = sql`m cross join lateral (${doctorHolds(sql`m`, filters.doctor)}) x`;
        totalSql = sql`(select least(count(*), ${countCap + 1})::int from (select 1 from ${checked} limit ${countCap + 1}) k)`;
        rows = await page(
          sql`(select id, username from m order by username, id offset 0) c cross join lateral (${doctorHolds(sql`c`, filters.doctor)}) x order by c.username, c.id`,
          totalSql,
        );
      }
    }
  }
  // Past the last page no row carries the count.
  const total =
    rows[0]?.total ??
    (q.page === 1
      ? 0
      : rowsOf<{ total: number }>(await db.execute(sql`${cte ?? sql``}select ${totalSql} as total`))[0].total);
  const capped = total > countCap;
  const slots = await nextFreeSlots(
    db,
    rows.map((r) => ({ doctorId: r.id, next: r.nextSlot })),
    now,
  );
  return {
    doctors: rows.map((r) => ({ ...doctorCard(r, r.specialities), nextSlot: nextSlotOnWire(slots.get(r.id) ?? null) })),
    ...pageInfo(capped ? countCap : total, q.page, q.limit),
    totalCapped: capped,
  };
}

const and = (...parts: SQL[]) => sql.join(parts, sql` and `);

/**
 * The conditions of a search over `users u join doctors d`: listed doctors only (verified and not
 * deleted, docs/product.md) and the query's filters, split by the row they read, so that a scan of
 * users can apply its own before any doctor is read.
 */
function filtersOf(q: DoctorSearch): { user: SQL[]; doctor: SQL[] } {
  const user = [sql`u.role = 'doctor'`, sql`u.deleted_at is null`];
  const doctor = [sql`d.verification = 'verified'`];
  if (q.id) user.push(sql`u.id = ${q.id}`);
  if (q.city) user.push(sql`u.city_id = ${q.city}`);
  if (q.country) user.push(sql`u.country_id = ${q.country}`);
  if (q.speciality)
    doctor.push(
      sql`exists (select 1 from doctor_specialities s where s.doctor_id = d.user_id and s.speciality_id = ${q.speciality})`,
    );
  return { user, doctor };
}

/**
 * The name of match `m` (a row of `id` and `username`) when its doctor's own conditions hold, as the
 * inner side of a lateral join: a lookup by id, kept one by OFFSET 0 as in `listedOne`.
 */
const doctorHolds = (m: SQL, conditions: SQL[]) =>
  sql`select ${m}.username from doctors d where d.user_id = ${m}.id and ${and(...conditions)} offset 0`;

/**
 * The listed doctor of id `id` when `where` holds (over `users u join doctors d`), as the inner side
 * of a lateral join: OFFSET 0 keeps it a lookup by id for each candidate, which the planner may not
 * turn into a scan of the directory joined to the candidates.
 */
const listedOne = (id: SQL, where: SQL) =>
  sql`select u.username from users u join doctors d on d.user_id = u.id where u.id = ${id} and ${where} offset 0`;

/**
 * One page of cards in name order, each with its specialities, its next free slot and `total`. `candidates` is a FROM
 * clause giving `c.id` and `x.username` of the listed doctors with its ORDER BY; without it, the
 * directory filtered by `where`.
 */
function pageOf(candidates: SQL | undefined, where: SQL, total: SQL, limit: number, offset: number, now: Date): SQL {
  const ids = candidates
    ? sql`select c.id, x.username from ${candidates} limit ${limit} offset ${offset}`
    : sql`select u.id, u.username from users u join doctors d on d.user_id = u.id where ${where} order by u.username, u.id limit ${limit} offset ${offset}`;
  return sql`select u.id, u.username, u.avatar_url as "avatarUrl", u.deleted_at as "deletedAt",
      d.contact, d.duty_hospital as "dutyHospital", d.start_year as "startYear", d.biography,
      c.id as "cityId", c.name as "cityName", k.id as "countryId", k.name as "countryName", k.code as "countryCode",
      coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name, 'nameFr', s.name_fr, 'isGeneral', s.is_general) order by s.name)
        from doctor_specialities ds join specialities s on s.id = ds.speciality_id where ds.doctor_id = u.id), '[]') as specialities,
      ${nextFreeSlotOf(sql`u.id`, now)} as "nextSlot",
      ${total} as total
    from (${ids}) p join users u on u.id = p.id join doctors d on d.user_id = u.id
    left join cities c on c.id = u.city_id left join countries k on k.id = u.country_id
    order by p.username, p.id`;
}

export function doctorSearchRouter({ db }: ApiDeps) {
  const router = Router();
  router.get("/", authenticate(db), async (req, res) => {
    res.json(await searchDoctors(db, parse(doctorSearchQuery, req.query)));
  });
  return router;
}
