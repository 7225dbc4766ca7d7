// The search's next free slot is kept between searches (api/appointment/availability.ts,
// `nextFreeSlotOf`, migration 0013): whatever changes the doctor's calendar, and as time passes, the
// card shows the first slot the availability rule lets a patient book, never a kept answer gone
// stale. The truth each time: the rule's slots of each day (`slotsOfDay`, GET /appointment/slots) walked day by day.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { and, eq, sql } from "drizzle-orm";
import { closureList } from "../../contract/availability.ts";
import { SLOTS, WEEKDAYS } from "../../contract/constants.ts";
import { type RandomPlan, randomPlan } from "./plan-arbitrary.ts";
import { appointments, workingPlans } from "../db/schema.ts";
import { resetConfigForTests } from "../../config.ts";
import { searchDoctors } from "../doctor/search.ts";
import { setUpApi, type TestDoctor, type TestPatient, UNBOUND_BOOKINGS } from "../test/harness.ts";
import { clinicParts, clinicToday } from "../time.ts";
import { slotsOfDay } from "./availability.ts";

const DAY = 86_400_000;
/** The date `offset` days after `date` (YYYY-MM-DD). */
const dayAfter = (date: string, offset: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);

const plan = randomPlan;
type Plan = RandomPlan;

/** The weekday of a date, as a plan's week names it. */
const weekdayOf = (date: string) => WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;

describe("the search's next free slot, kept between searches", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });

  const card = async (doctor: TestDoctor, patient: TestPatient) => {
    const res = await api.request("GET", `/doctor?id=${doctor.user.id}`, { token: patient.token });
    expect(res.status).toBe(200);
    return (res.body as { doctors: { nextSlot: { date: string; time: string } | null }[] }).doctors[0]!.nextSlot;
  };

  /** The first slot the rule lists as available (GET /appointment/slots' `slotsOfDay`), walking from today to the horizon. */
  const truth = async (doctorId: string, horizon: number, now = new Date()) => {
    for (let offset = 0; offset <= horizon; offset++) {
      const date = dayAfter(clinicToday(now), offset);
      const free = (await slotsOfDay(api.db, doctorId, date, now)).find((s) => s.available);
      if (free) return { date, time: free.iso };
    }
    return null;
  };

  it("shows the first slot the rule allows after every kind of change, each search after the last", async () => {
    const admin = await api.createAdmin();
    const holidays = new Set(
      (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body.closures.map(
        (c) => c.date,
      ),
    );
    const change = fc.oneof(
      fc.record({ kind: fc.constant("book the card's slot" as const) }),
      fc.record({ kind: fc.constant("book" as const), day: fc.nat(14), which: fc.nat() }),
      fc.record({ kind: fc.constant("cancel" as const), which: fc.nat() }),
      fc.record({ kind: fc.constant("absence" as const), day: fc.nat(14), length: fc.nat(3) }),
      fc.record({ kind: fc.constant("end an absence" as const), which: fc.nat() }),
      fc.record({ kind: fc.constant("close a day" as const), day: fc.nat(14) }),
      fc.record({ kind: fc.constant("close the card's day" as const) }),
      fc.record({ kind: fc.constant("away on the card's day" as const) }),
      fc.record({ kind: fc.constant("open a day" as const), which: fc.nat() }),
      fc.record({ kind: fc.constant("plan" as const), plan: plan(14) }),
      fc.record({ kind: fc.constant("notice, in the table" as const), hours: fc.nat(48) }),
    );
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(plan(14), fc.array(change, { minLength: 4, maxLength: 8 }), async (first, changes) => {
        const doctor = await api.createDoctor();
        const patient = await api.createPatient();
        const put = async (p: Plan) =>
          expect((await api.request("PUT", "/doctor/working-plan", { token: doctor.token, body: p })).status).toBe(200);
        await put(first);
        let current = first;
        const booked: string[] = [];
        const absences: string[] = [];
        const closures: string[] = [];
        const book = async (date: string, time: string) => {
          const res = await api.request("POST", "/appointment", {
            token: patient.token,
            body: { doctorId: doctor.user.id, type: "online", date, time },
          });
          if (res.status === 201) booked.push((res.body as { id: string }).id);
          return res.status;
        };
        try {
          // Each change comes after a search that kept its answer: the change must make it go.
          expect(await card(doctor, patient)).toEqual(await truth(doctor.user.id, current.bookingHorizonDays));
          for (const c of changes) {
            const today = clinicToday();
            if (c.kind === "book the card's slot") {
              const shown = await card(doctor, patient);
              // No slot shown: nothing to book.
              expect(shown ? await book(shown.date, clinicParts(new Date(shown.time)).time) : 201).toBe(201);
            } else if (c.kind === "book") {
              // One of the day's starts in the plan, free or not: the rule answers.
              const date = dayAfter(today, c.day);
              const starts = current.week[weekdayOf(date)];
              if (starts.length > 0) await book(date, starts[c.which % starts.length]!);
            } else if (c.kind === "cancel" && booked.length) {
              const [id] = booked.splice(c.which % booked.length, 1);
              const res = await api.request("PATCH", `/appointment/${id}`, {
                token: patient.token,
                body: { status: "cancelled" },
              });
              // 409: a closed day or an absence has cancelled it already, or it is too late to.
              expect([200, 409]).toContain(res.status);
            } else if (c.kind === "absence") {
              const res = await api.request("POST", "/doctor/absences", {
                token: doctor.token,
                body: {
                  from: dayAfter(today, c.day),
                  to: dayAfter(today, c.day + c.length),
                  cancelAppointments: true,
                },
              });
              // 409: it overlaps one already there.
              if (res.status === 201) absences.push((res.body as { absence: { id: string } }).absence.id);
            } else if (c.kind === "end an absence" && absences.length) {
              const [id] = absences.splice(c.which % absences.length, 1);
              expect(
                (await api.request("DELETE", `/doctor/absences/${id}`, { token: doctor.token })).status,
              ).toBeLessThan(300);
            } else if (c.kind === "close a day" || c.kind === "close the card's day") {
              const date = c.kind === "close a day" ? dayAfter(today, c.day) : (await card(doctor, patient))?.date;
              if (date && !holidays.has(date)) {
                const res = await api.request("POST", "/admin/closures", {
                  token: admin.token,
                  body: { date, reason: "Random", cancelAppointments: true },
                });
                if (res.status === 201) closures.push((res.body as { closure: { id: string } }).closure.id);
              }
            } else if (c.kind === "away on the card's day") {
              const date = (await card(doctor, patient))?.date;
              const res =
                date &&
                (await api.request("POST", "/doctor/absences", {
                  token: doctor.token,
                  body: { from: date, to: date, cancelAppointments: true },
                }));
              if (res && res.status === 201) absences.push((res.body as { absence: { id: string } }).absence.id);
            } else if (c.kind === "open a day" && closures.length) {
              const [id] = closures.splice(c.which % closures.length, 1);
              expect(
                (await api.request("DELETE", `/admin/closures/${id}`, { token: admin.token })).status,
              ).toBeLessThan(300);
            } else if (c.kind === "plan") {
              await put(c.plan);
              current = c.plan;
            } else if (c.kind === "notice, in the table") {
              // Not through the API: whatever writes the row, the kept answer follows it.
              await api.db
                .update(workingPlans)
                .set({ minimumNoticeHours: c.hours })
                .where(eq(workingPlans.doctorId, doctor.user.id));
            }
            expect(await card(doctor, patient), c.kind).toEqual(
              await truth(doctor.user.id, current.bookingHorizonDays),
            );
            compared++;
          }
        } finally {
          for (const id of closures) await api.request("DELETE", `/admin/closures/${id}`, { token: admin.token });
        }
      }),
      { numRuns: 8, endOnFailure: true },
    );
    expect(compared).toBeGreaterThan(25);
  }, 300_000);

  it("gives the card its slot back at once when the booking of it is cancelled", async () => {
    const doctor = await api.createDoctor();
    const patient = await api.createPatient();
    const first = await card(doctor, patient);
    expect(first).not.toBeNull();
    const booked = await api.request("POST", "/appointment", {
      token: patient.token,
      body: { doctorId: doctor.user.id, type: "online", date: first!.date, time: first!.time },
    });
    expect(booked.status).toBe(201);
    expect(await card(doctor, patient)).not.toEqual(first);
    const cancelled = await api.request("PATCH", `/appointment/${(booked.body as { id: string }).id}`, {
      token: patient.token,
      body: { status: "cancelled" },
    });
    expect(cancelled.status).toBe(200);
    expect(await card(doctor, patient)).toEqual(first);
  });

  it("moves on as time passes: the found slot's notice running out, a new day entering the horizon", async () => {
    let moved = 0;
    await fc.assert(
      fc.asyncProperty(
        plan(10),
        fc.array(fc.noBias(fc.integer({ min: 1, max: 60 * 60 })), { minLength: 3, maxLength: 8 }),
        async (p, steps) => {
          const doctor = await api.createDoctor();
          await api.db
            .update(workingPlans)
            // fast-check's records have no prototype, which drizzle does not take.
            .set({ ...p, week: { ...p.week } as typeof workingPlans.$inferInsert.week })
            .where(eq(workingPlans.doctorId, doctor.user.id));
          const search = async (now: Date) =>
            (await searchDoctors(api.db, { id: doctor.user.id, page: 1, limit: 10 }, undefined, undefined, now))
              .doctors[0]!.nextSlot;
          let now = new Date();
          let last = await search(now);
          for (const minutes of steps) {
            // Time only goes forward; up to 60 hours a step.
            now = new Date(now.getTime() + minutes * 60_000);
            const shown = await search(now);
            expect(shown, now.toISOString()).toEqual(await truth(doctor.user.id, p.bookingHorizonDays, now));
            if (JSON.stringify(shown) !== JSON.stringify(last)) moved++;
            last = shown;
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
    // Not vacuous: the kept answers did have to move.
    expect(moved).toBeGreaterThan(3);
  }, 300_000);

  it("finds the slot again in the clinic's new time zone", async () => {
    const doctor = await api.createDoctor();
    const everyDay = Object.fromEntries(WEEKDAYS.map((day) => [day, [...SLOTS]]));
    await api.db
      .update(workingPlans)
      .set({ week: everyDay as typeof workingPlans.$inferSelect.week, minimumNoticeHours: 0 })
      .where(eq(workingPlans.doctorId, doctor.user.id));
    // Next week at noon UTC: 13:00 in Douala, where 14:00 is the next slot of the day; 02:00 the
    // day after in Kiritimati (UTC+14), where it is 09:00.
    const day = dayAfter(clinicToday(), 7);
    const now = new Date(`${day}T12:00:00Z`);
    const search = async () =>
      (await searchDoctors(api.db, { id: doctor.user.id, page: 1, limit: 10 }, undefined, undefined, now)).doctors[0]!
        .nextSlot;
    const before = process.env.APP_TIMEZONE;
    const douala = await search();
    expect(douala).toEqual({ date: day, time: `${day}T14:00:00+01:00` });
    try {
      // An operator moves the clinic (APP_TIMEZONE) and restarts: the kept slot is found again.
      process.env.APP_TIMEZONE = "Pacific/Kiritimati";
      resetConfigForTests();
      expect(await search()).toEqual({ date: dayAfter(day, 1), time: `${dayAfter(day, 1)}T09:00:00+14:00` });
    } finally {
      if (before === undefined) delete process.env.APP_TIMEZONE;
      else process.env.APP_TIMEZONE = before;
      resetConfigForTests();
    }
    expect(await search()).toEqual(douala);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "does not keep what a search found while a booking of that slot was being written",
    async () => {
      const doctor = await api.createDoctor();
      const patient = await api.createPatient();
      await api.db.update(workingPlans).set({ minimumNoticeHours: 0 }).where(eq(workingPlans.doctorId, doctor.user.id));
      const before = await card(doctor, patient);
      expect(before).not.toBeNull();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const inserted = new Promise<void>((resolve) => (written = resolve));
      // A booking of the card's slot, written but not yet committed (its trigger holds the row).
      const booking = api.db.transaction(async (tx) => {
        await tx.insert(appointments).values({
          patientId: patient.user.id,
          doctorId: doctor.user.id,
          type: "online",
          category: "direct",
          status: "pending",
          startsAt: new Date(before!.time),
        });
        written();
        await held;
      });
      await inserted;
      // Meanwhile a search still sees the slot free (the booking is not committed): that is right
      // now, but must not be kept.
      expect(await card(doctor, patient)).toEqual(before);
      release();
      await booking;
      const after = await card(doctor, patient);
      expect(after).not.toEqual(before);
      expect(after).toEqual(await truth(doctor.user.id, 90));
      const [row] = await api.db
        .select({ n: sql<number>`count(*)::int` })
        .from(appointments)
        .where(and(eq(appointments.doctorId, doctor.user.id), eq(appointments.startsAt, new Date(before!.time))));
      expect(row!.n).toBe(1);
    },
  );
});
