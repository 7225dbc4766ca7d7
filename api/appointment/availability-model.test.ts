// The availability rule (api/appointment/availability.ts) against a model of it written here in
// plain TypeScript: for random plans of random visit lengths, over visits booked under earlier plans
// with their own lengths (some cancelled, some walk-ins), GET /appointment/slots lists exactly the
// starts of the plan with the model's verdicts, and booking starts picked at random is accepted
// exactly when the model says it is free, refused with the model's reason otherwise (fast-check, 100
// runs). The database's own guarantee is checked on the way: it keeps an earlier visit exactly when
// it overlaps no kept one.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { eq } from "drizzle-orm";
import { daySlots } from "../../contract/appointment.ts";
import { closureList } from "../../contract/availability.ts";
import { WEEKDAYS } from "../../contract/constants.ts";
import { isExclusionViolation, isUniqueViolation } from "../db-errors.ts";
import { workingPlans } from "../db/schema.ts";
import { UNBOUND_BOOKINGS, refusal, setUpApi } from "../test/harness.ts";
import { clinicToday, zonedInstant } from "../time.ts";
import { hhmm, type RandomPlan, randomPlan } from "./plan-arbitrary.ts";
import { insertAppointment } from "./test-factories.ts";

const DAY = 86_400_000;
const MINUTE = 60_000;
/** The date `offset` days from the clinic's today. */
const dayFrom = (offset: number) =>
  new Date(Date.parse(`${clinicToday()}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

interface Visit {
  startsAt: number;
  endsAt: number;
}

/** The model: each start of the plan on `date`, with the reason it cannot be booked at `now` (null: free). */
function model(plan: RandomPlan, visits: Visit[], holidays: Set<string>, date: string, now: Date) {
  const weekday = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
  const daysAhead = Math.round((Date.parse(date) - Date.parse(clinicToday(now))) / DAY);
  return plan.week[weekday].map((time) => {
    const startsAt = zonedInstant(date, time).getTime();
    const endsAt = startsAt + plan.visitMinutes * MINUTE;
    const reason =
      startsAt <= now.getTime()
        ? "past_date"
        : startsAt < now.getTime() + plan.minimumNoticeHours * 60 * MINUTE
          ? "notice_too_short"
          : daysAhead > plan.bookingHorizonDays
            ? "beyond_horizon"
            : holidays.has(date)
              ? "clinic_closed"
              : visits.some((v) => v.startsAt === startsAt)
                ? "slot_taken"
                : visits.some((v) => v.startsAt < endsAt && v.endsAt > startsAt)
                  ? "visit_overlap"
                  : null;
    return { time, end: hhmm(minutesOf(time) + plan.visitMinutes), reason };
  });
}

const earlierVisit = (days: number[]) =>
  fc.record({
    day: fc.constantFrom(...days),
    minute: fc.integer({ min: 6 * 12, max: 20 * 12 }).map((n) => n * 5),
    length: fc.integer({ min: 5, max: 120 }),
    status: fc.constantFrom("pending" as const, "confirmed" as const, "cancelled" as const),
    walkIn: fc.boolean(),
  });

// A day from today to past the longest horizon drawn, the earlier visits on it, and which of its
// starts to book (by position in the list).
const world = fc.integer({ min: 0, max: 14 }).chain((day) =>
  fc.record({
    day: fc.constant(day),
    plan: randomPlan(12),
    earlier: fc.array(earlierVisit([day]), { maxLength: 12 }),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  }),
);

describe("the availability rule and a model of it", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });

  it("agree on every start of random plans of random lengths, over visits of other lengths", async () => {
    const admin = await api.createAdmin();
    const holidays = new Set(
      (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body.closures.map(
        (c) => c.date,
      ),
    );
    const seen = { free: 0, overlap: 0 };
    await fc.assert(
      fc.asyncProperty(world, async ({ earlier, plan, day, picks }) => {
        const doctor = await api.createDoctor();
        const patient = await api.createPatient();
        // The earlier visits are another patient's: a patient never holds two visits at one start.
        const earlierPatient = await api.createPatient();
        const visits: Visit[] = [];
        for (const v of earlier) {
          // Booked under a plan of that length: the trigger gives the visit its end.
          await api.db
            .update(workingPlans)
            .set({ visitMinutes: v.length })
            .where(eq(workingPlans.doctorId, doctor.user.id));
          const startsAt = zonedInstant(dayFrom(v.day), hhmm(v.minute)).getTime();
          const visit = { startsAt, endsAt: startsAt + v.length * MINUTE };
          const holds = v.status !== "cancelled" && !v.walkIn;
          const clash = holds && visits.some((o) => o.startsAt < visit.endsAt && o.endsAt > visit.startsAt);
          const kept = await insertAppointment(api.db, {
            patientId: earlierPatient.user.id,
            doctorId: doctor.user.id,
            startsAt: new Date(startsAt),
            status: v.status,
            walkIn: v.walkIn,
          }).then(
            () => true,
            (err: unknown) => {
              expect(
                isExclusionViolation(err, "appointments_no_overlap") ||
                  isUniqueViolation(err, "appointments_doctor_slot_active"),
              ).toBe(true);
              return false;
            },
          );
          expect(kept, "the database keeps a visit exactly when it overlaps none it kept").toBe(!clash);
          if (kept && holds) visits.push(visit);
        }
        const put = await api.request("PUT", "/doctor/working-plan", { token: doctor.token, body: plan });
        expect(put.status).toBe(200);

        const date = dayFrom(day);
        // The clock moves during the run: a start at the edge of the notice may change verdict
        // between two readings, so the answer must be the model's at one of them.
        const before = new Date();
        const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
          answer: daySlots,
          token: patient.token,
        });
        const after = new Date();
        expect(slots.status).toBe(200);
        const listed = slots.body.map(({ time, end, reason }) => ({ time, end, reason }));
        expect([
          model(plan, visits, holidays, date, before),
          model(plan, visits, holidays, date, after),
        ]).toContainEqual(listed);
        // A day without starts has nothing to book (its list, empty, was checked above).
        // Each start once: booking one's own start again is the booking limits' refusal
        // (booking_same_time), not the rule's; another patient's start is in the earlier visits.
        const times = new Set(listed.length ? picks.map((p) => listed[p % listed.length]!.time) : []);
        for (const time of times) {
          const at = new Date();
          const res = await api.request("POST", "/appointment", {
            token: patient.token,
            body: { doctorId: doctor.user.id, type: "online", date, time },
          });
          const outcome = (reason: string | null) =>
            reason === null ? [201, null] : [reason === "past_date" ? 400 : 409, reason];
          const verdicts = [at, new Date()].map(
            (now) => model(plan, visits, holidays, date, now).find((s) => s.time === time)!.reason,
          );
          const got = [res.status, res.status === 201 ? null : refusal(res).code];
          expect(verdicts.map(outcome), `${date} ${time}`).toContainEqual(got);
          if (res.status === 201) {
            const startsAt = zonedInstant(date, time).getTime();
            visits.push({ startsAt, endsAt: startsAt + plan.visitMinutes * MINUTE });
          }
          seen.free += Number(res.status === 201);
          seen.overlap += Number(got[1] === "visit_overlap");
        }
      }),
      // A failure is reported as found: shrinking it would replay runs for minutes.
      { numRuns: 100, endOnFailure: true },
    );
    // Not a vacuous agreement: some starts were free and taken, some fell inside older visits.
    expect(seen.free).toBeGreaterThan(0);
    expect(seen.overlap).toBeGreaterThan(0);
  }, 600_000);
});
