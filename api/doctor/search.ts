// GET /doctor (docs/product.md, The API): the find-a-doctor search. Only verified, not deleted doctors are
// listed (docs/product.md). One query for the page, one for its specialities, one count that
// stops at COUNT_CAP matches (docs/decisions/0004-capped-directory-count.md).
import { Router } from "express";
import { and, asc, count, eq, exists, ilike, inArray, isNull, type SQL } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { doctorSpecialities, doctors, users } from "../db/schema.ts";
import { authenticate, parse } from "../http.ts";
import { doctorSearchQuery, type DoctorPage, type DoctorSearch } from "../../contract/doctor.ts";
import { containsPattern, pageInfo } from "../query.ts";
import { cardsFor, selectDoctorRows } from "./card.ts";

/**
 * The count of matching doctors is exact up to here; past it `total` is COUNT_CAP and `totalCapped`
 * is true ("more than 100 doctors found"). Counting every match of a broad search over a national
 * directory costs time in proportion to the matches, and a patient refines a search rather than
 * paging past the tenth page (measured: bench/README.md; decision: docs/decisions/0004).
 */
const COUNT_CAP = 100;

export async function searchDoctors(db: Db, q: DoctorSearch, countCap = COUNT_CAP): Promise<DoctorPage> {
  const filters: (SQL | undefined)[] = [
    eq(users.role, "doctor"),
    isNull(users.deletedAt),
    eq(doctors.verification, "verified"),
    q.id ? eq(users.id, q.id) : undefined,
    q.city ? eq(users.cityId, q.city) : undefined,
    q.country ? eq(users.countryId, q.country) : undefined,
    q.speciality
      ? exists(
          db
            .select({ one: doctorSpecialities.doctorId })
            .from(doctorSpecialities)
            .where(and(eq(doctorSpecialities.doctorId, users.id), eq(doctorSpecialities.specialityId, q.speciality))),
        )
      : undefined,
  ];
  /** The ids of the listed doctors that also meet `match`. */
  const matching = (match?: SQL) =>
    db
      .select({ id: users.id })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.id))
      .where(and(...filters, match));
  const offset = (q.page - 1) * q.limit;
  let pageWhere = and(...filters);
  let countQuery = db.select({ total: count() }).from(matching().limit(countCap + 1).as("matches"));
  if (q.search) {
    // Name or hospital, each side matched on its own and then merged: an OR across the two tables
    // could only be answered by reading every doctor. Each side gives its first `offset + limit`
    // doctors in name order (the page can only hold those), so the database may walk the
    // name-ordered directory index and stop early (a fragment in many names: 'mba') or fetch the
    // few matches through the trigram index and sort them (a rare one), whichever its statistics
    // say is cheaper. The count takes up to `countCap + 1` of each side, merged without doubles.
    // Measured: bench/README.md, Data scale; docs/decisions/0004-capped-directory-count.md.
    const pattern = containsPattern(q.search);
    const sides = [ilike(users.username, pattern), ilike(doctors.dutyHospital, pattern)];
    const [byName, byHospital] = sides.map((match) => matching(match).orderBy(asc(users.username), asc(users.id)).limit(offset + q.limit));
    pageWhere = and(pageWhere, inArray(users.id, byName.unionAll(byHospital)));
    const counted = matching(sides[0]).limit(countCap + 1).union(matching(sides[1]).limit(countCap + 1));
    countQuery = db.select({ total: count() }).from(counted.as("matches"));
  }
  const [rows, [{ total }]] = await Promise.all([
    selectDoctorRows(db).where(pageWhere).orderBy(asc(users.username), asc(users.id)).limit(q.limit).offset(offset),
    countQuery,
  ]);
  const capped = total > countCap;
  return { doctors: await cardsFor(db, rows), ...pageInfo(capped ? countCap : total, q.page, q.limit), totalCapped: capped };
}

export function doctorSearchRouter({ db }: ApiDeps) {
  const router = Router();
  router.get("/", authenticate(db), async (req, res) => {
    res.json(await searchDoctors(db, parse(doctorSearchQuery, req.query)));
  });
  return router;
}
