// The clinic's closed days, kept by the admin (docs/product.md, Availability): GET/POST
// /admin/closures, DELETE /admin/closures/{id}. Cameroon's fixed public holidays through 2036 came
// with migration 0010; the one availability rule (api/appointment/availability.ts) reads them.
import { Router } from "express";
import { and, asc, count, eq, gt, gte, lte } from "drizzle-orm";
import type { z } from "zod";
import { closureBody, closureListQuery, type Closure } from "../../contract/availability.ts";
import { isUuid } from "../../contract/fields.ts";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { clinicClosures } from "../db/schema.ts";
import { authenticate, conflict, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { lockClinicCalendar } from "../appointment/availability.ts";
import { closePeriod } from "../appointment/period.ts";
import { clinicToday } from "../time.ts";

const closureOf = (r: typeof clinicClosures.$inferSelect): Closure => ({
  id: r.id,
  date: r.date,
  reason: r.reason,
  holiday: r.holiday,
});
const closureExists = () => conflict("The clinic is already closed on this day", "closure_exists");

/**
 * The most closed days to come: the fixed holidays through 2036 are about 66; this bounds the list.
 * The page says the number (admin:closures.tooMany in locales/).
 */
const MAX_COMING_CLOSURES = 400;

/**
 * The closed days from today until `to` (every one without it), soonest first, and how many come
 * after `to`: the page shows the coming year, the holidays written through 2036 on request.
 */
async function listClosures(db: Db, { to }: z.output<typeof closureListQuery>) {
  const coming = gte(clinicClosures.date, clinicToday());
  const [rows, [after]] = await Promise.all([
    db
      .select()
      .from(clinicClosures)
      .where(and(coming, to ? lte(clinicClosures.date, to) : undefined))
      .orderBy(asc(clinicClosures.date)),
    to ? db.select({ n: count() }).from(clinicClosures).where(gt(clinicClosures.date, to)) : [{ n: 0 }],
  ]);
  return { closures: rows.map(closureOf), later: after.n };
}

function closeDay(db: Db, mailer: OutboxMailer, adminId: string, body: z.output<typeof closureBody>) {
  const { date, reason, cancelAppointments } = body;
  const change = { from: date, to: date, cancelAppointments, actorId: adminId, reason };
  return closePeriod(
    db,
    mailer,
    { ...change, change: "cancelledForClosure" },
    {
      lock: lockClinicCalendar,
      async check(tx) {
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
      },
      async record(tx) {
        const [row] = await tx.insert(clinicClosures).values({ date, reason }).returning();
        return closureOf(row);
      },
    },
  ).then(({ row, ...cancelled }) => ({ closure: row, ...cancelled }));
}

async function reopenDay(db: Db, id: string) {
  if (!isUuid(id)) throw notFound("Closed day not found");
  const [row] = await db.delete(clinicClosures).where(eq(clinicClosures.id, id)).returning({ id: clinicClosures.id });
  if (!row) throw notFound("Closed day not found");
}

export function closuresRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const adminOnly = authenticate(db, "admin");

  router.get("/closures", adminOnly, async (req, res) => {
    res.json(await listClosures(db, parse(closureListQuery, req.query)));
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
