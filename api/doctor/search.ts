// GET /doctor (docs/product.md, The API): the find-a-doctor search. Only verified, not deleted doctors are
// listed (docs/product.md). One query for the page, one for its specialities, one count that
// stops at COUNT_CAP matches (docs/decisions/0004-capped-directory-count.md).
import { Router } from "express";
import { and, asc, count, eq, exists, ilike, inArray, isNull, sql, type SQL } from "drizzle-orm";
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
  const conditions: (SQL | undefined)[] = [
    eq(users.role, "doctor"),
    isNull(users.deletedAt),
    eq(doctors.verification, "verified"),
    q.id ? eq(users.id, q.id) : undefined,
    q.city ? eq(users.cityId, q.city) : undefined,
    q.country ? eq(users.countryId, q.country) : undefined,
  ];
  if (q.search) {
    // Name or hospital: two trigram-indexed lookups whose union drives the page, rather than an OR
    // across the joined tables, which no index can answer (every doctor would be read).
    const pattern = containsPattern(q.search);
    conditions.push(
      inArray(
        users.id,
        db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.role, "doctor"), ilike(users.username, pattern)))
          .unionAll(db.select({ id: doctors.userId }).from(doctors).where(ilike(doctors.dutyHospital, pattern))),
      ),
    );
  }
  if (q.speciality) {
    conditions.push(
      exists(
        db
          .select({ one: doctorSpecialities.doctorId })
          .from(doctorSpecialities)
          .where(and(eq(doctorSpecialities.doctorId, users.id), eq(doctorSpecialities.specialityId, q.speciality))),
      ),
    );
  }
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    selectDoctorRows(db)
      .where(where)
      .orderBy(asc(users.username), asc(users.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ total: count() })
      .from(
        db
          .select({ one: sql`1` })
          .from(users)
          .innerJoin(doctors, eq(doctors.userId, users.id))
          .where(where)
          .limit(countCap + 1)
          .as("matches"),
      ),
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
