// The clinic's closed days, kept by the admin (docs/product.md, Availability): GET/POST
// /admin/closures, DELETE /admin/closures/{id}. Cameroon's fixed public holidays through 2036 came
// with migration 0010; the one availability rule (api/appointment/availability.ts) reads them.
import { Router } from "express";
import { asc, count, eq, gte } from "drizzle-orm";
import type { z } from "zod";
import { closureBody, type Closure } from "../../contract/availability.ts";
import { isUuid } from "../../contract/fields.ts";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { clinicClosures } from "../db/schema.ts";
import { authenticate, badRequest, conflict, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { auditPatients } from "../audit.ts";
import { lockClinicCalendar } from "../appointment/availability.ts";
import { cancelledList, clearPeriod } from "../appointment/period.ts";
import { clinicToday } from "../time.ts";

const closureOf = (r: typeof clinicClosures.$inferSelect): Closure => ({ id: r.id, date: r.date, reason: r.reason });
const closureExists = () => conflict("The clinic is already closed on this day", "closure_exists");

/**
 * The most closed days to come: the fixed holidays through 2036 are about 66; this bounds the list.
 * The page says the number (admin:closures.tooMany in locales/).
 */
const MAX_COMING_CLOSURES = 400;

/** The closed days from today on, soonest first (the holidays through 2036 are about 66 rows). */
async function listClosures(db: Db) {
  const rows = await db
    .select()
    .from(clinicClosures)
    .where(gte(clinicClosures.date, clinicToday()))
    .orderBy(asc(clinicClosures.date));
  return { closures: rows.map(closureOf) };
}

async function closeDay(
  db: Db,
  mailer: OutboxMailer,
  adminId: string,
  { date, reason, cancelAppointments }: z.output<typeof closureBody>,
) {
  if (date < clinicToday()) throw badRequest("The date cannot be before today", "past_date");
  const result = await db.transaction(async (tx) => {
    await lockClinicCalendar(tx);
    const [existing] = await tx
      .select({ id: clinicClosures.id })
      .from(clinicClosures)
      .where(eq(clinicClosures.date, date));
    if (existing) throw closureExists();
    const [coming] = await tx
      .select({ n: count() })
      .from(clinicClosures)
      .where(gte(clinicClosures.date, clinicToday()));
    if (coming.n >= MAX_COMING_CLOSURES)
      throw conflict(`The clinic has at most ${MAX_COMING_CLOSURES} closed days to come`, "too_many_closures");
    const cleared = await clearPeriod(tx, mailer, {
      from: date,
      to: date,
      cancelAppointments,
      actorId: adminId,
      change: "cancelledForClosure",
      reason,
    });
    try {
      const [row] = await tx.insert(clinicClosures).values({ date, reason }).returning();
      return { closure: closureOf(row), ...cleared };
    } catch (err) {
      if (isUniqueViolation(err, "clinic_closures_date_unique")) throw closureExists();
      throw err;
    }
  });
  mailer.wake();
  for (const a of result.cancelled)
    await auditPatients(db, adminId, [a.Patient?.id ?? ""].filter(Boolean), "update", "appointment", a.id);
  return { closure: result.closure, ...cancelledList(result.cancelled) };
}

async function reopenDay(db: Db, id: string) {
  if (!isUuid(id)) throw notFound("Closed day not found");
  const [row] = await db.delete(clinicClosures).where(eq(clinicClosures.id, id)).returning({ id: clinicClosures.id });
  if (!row) throw notFound("Closed day not found");
}

export function closuresRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const adminOnly = authenticate(db, "admin");

  router.get("/closures", adminOnly, async (_req, res) => {
    res.json(await listClosures(db));
  });

  router.post("/closures", adminOnly, idempotent(db), async (req, res) => {
    res.status(201).json(await closeDay(db, mailer, currentUser(req).id, parse(closureBody, req.body)));
  });

  router.delete("/closures/:id", adminOnly, idempotent(db), async (req, res) => {
    await reopenDay(db, String(req.params.id));
    res.json({ message: "Closed day removed" });
  });

  return router;
}
