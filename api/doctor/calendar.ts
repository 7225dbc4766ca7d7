// The doctor's own calendar (docs/product.md, Availability): GET/PUT /doctor/working-plan, and
// GET/POST /doctor/absences, DELETE /doctor/absences/{id}. What they change is read by the one
// availability rule (api/appointment/availability.ts).
import { Router } from "express";
import { and, asc, count, eq, gt, gte, inArray, sql } from "drizzle-orm";
import {
  absenceBody,
  type absenceList,
  workingPlan,
  type WorkingPlan,
  type WorkingPlanAnswer,
} from "../../contract/availability.ts";
import type { z } from "zod";
import { isUuid } from "../../contract/fields.ts";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { appointments, doctorAbsences, workingPlans } from "../db/schema.ts";
import { authenticate, conflict, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { lockDoctorCalendar } from "../appointment/availability.ts";
import { ACTIVE_STATUSES } from "../appointment/booking.ts";
import { appointmentOfPeriod, appointmentsWithPeople, closePeriod, PERIOD_LIST_MAX } from "../appointment/period.ts";
import { clinicTimeZone, clinicToday } from "../time.ts";

/**
 * The doctor's upcoming visits that their plan does not hold: a start the plan no longer offers on
 * that weekday, or a visit of another length than the plan's. They keep their time (nobody's
 * appointment moves because a plan changed); the Availability page lists them so the doctor can
 * move them. The soonest PERIOD_LIST_MAX, and how many in all.
 */
async function outsidePlan(db: Db, doctorId: string): Promise<WorkingPlanAnswer["outsidePlan"]> {
  const clinicStart = sql`(${appointments.startsAt} at time zone ${clinicTimeZone()})`;
  const misfit = and(
    eq(appointments.doctorId, doctorId),
    inArray(appointments.status, [...ACTIVE_STATUSES]),
    eq(appointments.walkIn, false),
    gt(appointments.startsAt, new Date()),
    sql`exists (select 1 from ${workingPlans} plan where plan.doctor_id = ${appointments.doctorId} and (
      not coalesce(plan.week -> to_char(${clinicStart}, 'FMday') @> to_jsonb(to_char(${clinicStart}, 'HH24:MI')), false)
      or ${appointments.endsAt} - ${appointments.startsAt} <> plan.visit_minutes * interval '1 minute'))`,
  );
  const [rows, [{ total }]] = await Promise.all([
    appointmentsWithPeople(db)
      .where(misfit)
      .orderBy(asc(appointments.startsAt), asc(appointments.id))
      .limit(PERIOD_LIST_MAX),
    db.select({ total: count() }).from(appointments).where(misfit),
  ]);
  return { appointments: rows.map(appointmentOfPeriod), total };
}

async function loadPlan(db: Db, doctorId: string): Promise<WorkingPlanAnswer> {
  const [row] = await db
    .select({
      week: workingPlans.week,
      visitMinutes: workingPlans.visitMinutes,
      minimumNoticeHours: workingPlans.minimumNoticeHours,
      bookingHorizonDays: workingPlans.bookingHorizonDays,
    })
    .from(workingPlans)
    .where(eq(workingPlans.doctorId, doctorId));
  // Every doctor has a row (migration 0010's trigger): a missing one is not a doctor's.
  if (!row) throw notFound("Doctor not found");
  return { ...row, outsidePlan: await outsidePlan(db, doctorId) };
}

async function savePlan(db: Db, doctorId: string, plan: WorkingPlan): Promise<WorkingPlanAnswer> {
  await db.transaction(async (tx) => {
    await lockDoctorCalendar(tx, doctorId);
    await tx
      .update(workingPlans)
      .set({ ...plan, updatedAt: new Date() })
      .where(eq(workingPlans.doctorId, doctorId));
  });
  return loadPlan(db, doctorId);
}

const absenceOf = (r: typeof doctorAbsences.$inferSelect) => ({
  id: r.id,
  from: r.startsOn,
  to: r.endsOn,
  reason: r.reason,
});

/** The absences not over yet (ending today or later), soonest first. */
async function listAbsences(db: Db, doctorId: string): Promise<z.infer<typeof absenceList>> {
  const rows = await db
    .select()
    .from(doctorAbsences)
    .where(and(eq(doctorAbsences.doctorId, doctorId), gte(doctorAbsences.endsOn, clinicToday())))
    .orderBy(asc(doctorAbsences.startsOn), asc(doctorAbsences.id));
  return { absences: rows.map(absenceOf) };
}

/**
 * The most absences a doctor has that are not over: far more than a real year's leave and
 * conferences, and a bound on the list every search's walk and the Availability page read. The
 * page says the number (doctor:availability.tooManyAbsences in locales/).
 */
const MAX_COMING_ABSENCES = 100;

function declareAbsence(db: Db, mailer: OutboxMailer, doctorId: string, body: z.output<typeof absenceBody>) {
  const { from, to, reason = null, cancelAppointments } = body;
  const change = { from, to, doctorId, cancelAppointments, actorId: doctorId, reason };
  return closePeriod(
    db,
    mailer,
    { ...change, change: "cancelledForAbsence" },
    {
      lock: (tx) => lockDoctorCalendar(tx, doctorId),
      async check(tx) {
        const [coming] = await tx
          .select({ n: count() })
          .from(doctorAbsences)
          .where(and(eq(doctorAbsences.doctorId, doctorId), gte(doctorAbsences.endsOn, clinicToday())));
        if (coming.n >= MAX_COMING_ABSENCES)
          throw conflict(`A doctor has at most ${MAX_COMING_ABSENCES} absences to come`, "too_many_absences");
      },
      async record(tx) {
        const [row] = await tx
          .insert(doctorAbsences)
          .values({ doctorId, startsOn: from, endsOn: to, reason })
          .returning();
        return absenceOf(row);
      },
    },
  ).then(({ row, ...cancelled }) => ({ absence: row, ...cancelled }));
}

async function removeAbsence(db: Db, doctorId: string, id: string) {
  if (!isUuid(id)) throw notFound("Absence not found");
  const [row] = await db
    .delete(doctorAbsences)
    .where(and(eq(doctorAbsences.id, id), eq(doctorAbsences.doctorId, doctorId)))
    .returning({ id: doctorAbsences.id });
  // Someone else's absence is as unknown as one that never was.
  if (!row) throw notFound("Absence not found");
}

export function doctorCalendarRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const doctorOnly = authenticate(db, "doctor");

  router.get("/working-plan", doctorOnly, async (req, res) => {
    res.json(await loadPlan(db, currentUser(req).id));
  });

  router.put("/working-plan", doctorOnly, idempotent(db), async (req, res) => {
    res.json(await savePlan(db, currentUser(req).id, parse(workingPlan, req.body)));
  });

  router.get("/absences", doctorOnly, async (req, res) => {
    res.json(await listAbsences(db, currentUser(req).id));
  });

  router.post("/absences", doctorOnly, idempotent(db), async (req, res) => {
    res.status(201).json(await declareAbsence(db, mailer, currentUser(req).id, parse(absenceBody, req.body)));
  });

  router.delete("/absences/:id", doctorOnly, idempotent(db), async (req, res) => {
    await removeAbsence(db, currentUser(req).id, String(req.params.id));
    res.json({ message: "Absence removed" });
  });

  return router;
}
