// The one availability rule (docs/product.md, Availability; api/appointment/availability.ts): each
// reason a slot is refused, for each way of taking a slot (a direct booking, a reschedule, a
// proposal on an open request, the acceptance of a proposal), and 100 patients racing for the last
// free slot of a day (their transactions overlapping on PostgreSQL; one at a time on PGlite). GET /appointment/slots agreeing with booking: availability-agreement.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray, sql } from "drizzle-orm";
import { SLOTS, WEEKDAYS } from "../../contract/constants.ts";
import { startsOfPeriod } from "../../contract/visit-plan.ts";
import { appointment, daySlots } from "../../contract/appointment.ts";
import { type SlotRefusal, workingPlanAnswer } from "../../contract/availability.ts";
import { isExclusionViolation } from "../db-errors.ts";
import { appointments, workingPlans } from "../db/schema.ts";
import { rowsOf } from "../query.ts";
import {
  UNBOUND_BOOKINGS,
  futureDate,
  refusal,
  setUpApi,
  type TestAdmin,
  type TestDoctor,
  type TestPatient,
  type TestReference,
} from "../test/harness.ts";
import { clinicParts, zonedInstant } from "../time.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "./test-factories.ts";

/** A week with the same starts on every day. */
const everyDay = (starts: string[]) => Object.fromEntries(WEEKDAYS.map((day) => [day, starts]));

/** The first day from `from` on (YYYY-MM-DD) whose UTC weekday is `weekday` (0 Sunday) and that is not closed. */
function nextWeekday(weekday: number, from = futureDate(1)): string {
  for (let day = Date.parse(`${from}T00:00:00Z`); ; day += 86_400_000) {
    const date = new Date(day);
    if (date.getUTCDay() === weekday && !["12-25", "01-01"].includes(date.toISOString().slice(5, 10)))
      return date.toISOString().slice(0, 10);
  }
}

describe("the availability rule", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });
  let ref: TestReference;
  let patient: TestPatient;
  let admin: TestAdmin;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient();
    admin = await api.createAdmin();
  });

  const putPlan = async (doctor: TestDoctor, change: Record<string, unknown>) => {
    const current = (await api.request("GET", "/doctor/working-plan", { token: doctor.token })).body as Record<
      string,
      unknown
    >;
    const res = await api.request("PUT", "/doctor/working-plan", {
      token: doctor.token,
      body: { ...current, ...change },
    });
    expect(res.status).toBe(200);
  };

  /**
   * Each reason: what makes a slot of a fresh doctor refused for it, and that slot. Each case is
   * sure to be refused for its own reason only (the other checks would let the slot pass).
   */
  const REASONS: Record<
    Exclude<SlotRefusal, "slot_taken" | "past_date">,
    (doctor: TestDoctor) => Promise<{ date: string; time: string }>
  > = {
    day_not_worked: async () => ({ date: nextWeekday(6), time: "09:00" }),
    slot_not_offered: async (doctor) => {
      const wednesday = nextWeekday(3);
      const week = (await api.request("GET", "/doctor/working-plan", { token: doctor.token })).body as {
        week: Record<string, string[]>;
      };
      await putPlan(doctor, { week: { ...week.week, wednesday: ["09:00", "10:00", "11:00"] } });
      return { date: wednesday, time: "14:00" };
    },
    doctor_absent: async (doctor) => {
      const date = futureDate(6);
      expect(
        (
          await api.request("POST", "/doctor/absences", {
            token: doctor.token,
            body: { from: futureDate(5), to: date },
          })
        ).status,
      ).toBe(201);
      return { date, time: "10:00" };
    },
    clinic_closed: async () => {
      // A day of its own for each use: a closed day is the whole clinic's.
      const date = futureDate(20 + closures++);
      expect(
        (
          await api.request("POST", "/admin/closures", {
            token: admin.token,
            body: { date, reason: "Ascension", cancelAppointments: true },
          })
        ).status,
      ).toBe(201);
      return { date, time: "11:00" };
    },
    notice_too_short: async (doctor) => {
      await putPlan(doctor, { minimumNoticeHours: 168 });
      return { date: futureDate(1), time: "16:00" };
    },
    beyond_horizon: async (doctor) => {
      await putPlan(doctor, { bookingHorizonDays: 10 });
      return { date: futureDate(15), time: "09:00" };
    },
    visit_overlap: async (doctor) => {
      // A visit of an hour booked at 09:00, then the plan changed to 20-minute visits: the 09:20
      // start is offered, and falls inside the hour still booked.
      const date = futureDate(7);
      await insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: doctor.user.id,
        status: "confirmed",
        startsAt: zonedInstant(date, "09:00"),
      });
      await putPlan(doctor, { visitMinutes: 20, week: everyDay(startsOfPeriod("08:00", "12:00", 20)) });
      return { date, time: "09:20" };
    },
  };
  let closures = 0;
  /** The reasons of a start the plan does not list: GET /appointment/slots leaves it out. */
  const UNLISTED = new Set(["day_not_worked", "slot_not_offered"]);

  const newDoctor = () => api.createDoctor({ specialities: ["General practice"] });

  describe.each(Object.entries(REASONS))("%s", (reason, makeRefused) => {
    it("refuses a direct booking with 409 and its code, and GET /appointment/slots says so", async () => {
      const doctor = await newDoctor();
      const { date, time } = await makeRefused(doctor);
      const res = await api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time },
      });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe(reason);
      const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
        answer: daySlots,
        token: patient.token,
      });
      // A start off the plan is not listed at all; any other is listed, refused for its reason.
      expect(slots.body.find((s) => s.time === time)).toEqual(
        UNLISTED.has(reason) ? undefined : expect.objectContaining({ available: false, reason }),
      );
      const booked = await api.db
        .select({ startsAt: appointments.startsAt })
        .from(appointments)
        .where(eq(appointments.doctorId, doctor.user.id));
      expect(booked.map((b) => clinicParts(b.startsAt).time)).toEqual(reason === "visit_overlap" ? ["09:00"] : []);
    });

    it("refuses a reschedule with 409 and its code, the appointment unchanged", async () => {
      const doctor = await newDoctor();
      const booked = await insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: doctor.user.id,
        status: "confirmed",
      });
      const { date, time } = await makeRefused(doctor);
      const res = await api.request("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { date, time } });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe(reason);
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, booked.id));
      expect(row.startsAt).toEqual(booked.startsAt);
    });

    it("refuses a proposal on an open request at that slot with 409 and its code", async () => {
      const doctor = await newDoctor();
      const { date, time } = await makeRefused(doctor);
      const request = await insertOpenRequest(api.db, {
        patientId: patient.user.id,
        specialityId: ref.speciality("General practice").id,
        startsAt: zonedInstant(date, time),
      });
      const res = await api.request("POST", "/appointment-proposal", {
        token: doctor.token,
        body: { appointmentId: request.id },
      });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe(reason);
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, request.id));
      expect(row.status).toBe("pending");
    });

    it("refuses the acceptance of a proposal at that slot with 409 and its code, the request still open", async () => {
      const doctor = await newDoctor();
      const { date, time } = await makeRefused(doctor);
      const request = await insertOpenRequest(api.db, {
        patientId: patient.user.id,
        specialityId: ref.speciality("General practice").id,
        startsAt: zonedInstant(date, time),
      });
      // Proposed before the doctor's calendar changed.
      const proposal = await insertProposal(api.db, request.id, doctor.user.id);
      const res = await api.request("PATCH", `/appointment-proposal/${proposal.id}/accept`, { token: patient.token });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe(reason);
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, request.id));
      expect(row).toMatchObject({ status: "proposed", doctorId: null });
    });
  });

  it("lets each of those slots be taken once the doctor's calendar allows it again", async () => {
    const doctor = await newDoctor();
    const saturday = nextWeekday(6);
    await putPlan(doctor, {
      week: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: ["09:00"], sunday: [] },
      minimumNoticeHours: 0,
    });
    const book = (date: string, time: string) =>
      api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time },
      });
    expect((await book(saturday, "09:00")).status).toBe(201);
    expect(refusal(await book(saturday, "10:00")).code).toBe("slot_not_offered");
    expect(refusal(await book(nextWeekday(1), "09:00")).code).toBe("day_not_worked");
  });

  it("keeps a visit booked under an old plan: its time and length stay, it blocks what it overlaps, the plan page lists it", async () => {
    const doctor = await newDoctor();
    await putPlan(doctor, { minimumNoticeHours: 0 });
    const date = futureDate(8);
    const book = (time: string) =>
      api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time },
      });
    const ten = await book("10:00");
    const two = await book("14:00");
    expect([ten.status, two.status]).toEqual([201, 201]);
    // Twenty-minute visits in the morning only: 10:00 is still a start, but of a shorter visit.
    await putPlan(doctor, { visitMinutes: 20, week: everyDay(startsOfPeriod("08:00", "12:00", 20)) });
    const plan = await api.request("GET", "/doctor/working-plan", { answer: workingPlanAnswer, token: doctor.token });
    expect(plan.body.outsidePlan.total).toBe(2);
    expect(plan.body.outsidePlan.appointments.map((a) => a.id)).toEqual([
      (ten.body as { id: string }).id,
      (two.body as { id: string }).id,
    ]);
    const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
      answer: daySlots,
      token: patient.token,
    });
    expect(slots.body.map((s) => [s.time, s.end, s.reason])).toEqual(
      startsOfPeriod("08:00", "12:00", 20).map((time, i, all) => [
        time,
        all[i + 1] ?? "12:00",
        time === "10:00" ? "slot_taken" : time === "10:20" || time === "10:40" ? "visit_overlap" : null,
      ]),
    );
    expect(refusal(await book("10:40")).code).toBe("visit_overlap");
    const eleven = await book("11:00");
    expect(eleven.status).toBe(201);
    // The appointments keep the length they were booked with; a new one has the plan's.
    const ends = await api.db
      .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
      .from(appointments)
      .where(eq(appointments.doctorId, doctor.user.id))
      .orderBy(appointments.startsAt);
    expect(ends.map((e) => [clinicParts(e.startsAt).time, clinicParts(e.endsAt).time])).toEqual([
      ["10:00", "11:00"],
      ["11:00", "11:20"],
      ["14:00", "15:00"],
    ]);
    // Moved by its doctor into the plan, the visit takes the plan's length; moving it a little
    // overlaps only itself, which does not count.
    const moved = await api.request("PUT", `/appointment/${(ten.body as { id: string }).id}`, {
      answer: appointment,
      token: doctor.token,
      body: { date, time: "10:20" },
    });
    expect(moved.status).toBe(200);
    expect([moved.body.time, moved.body.endTime].map((t) => clinicParts(new Date(t)).time)).toEqual(["10:20", "10:40"]);
    expect(
      (await api.request("GET", "/doctor/working-plan", { answer: workingPlanAnswer, token: doctor.token })).body
        .outsidePlan.total,
    ).toBe(1);
  });

  it("lets the database refuse two overlapping visits of one doctor, whatever the caller (not walk-ins nor cancelled ones)", async () => {
    const doctor = await newDoctor();
    const date = futureDate(12);
    const at = (time: string) => zonedInstant(date, time);
    const insert = (time: string, values: Partial<typeof appointments.$inferInsert> = {}) =>
      insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: doctor.user.id,
        status: "confirmed",
        startsAt: at(time),
        ...values,
      });
    await insert("09:00");
    const refused = await insert("09:30").then(
      () => null,
      (err: unknown) => err,
    );
    expect(isExclusionViolation(refused, "appointments_no_overlap")).toBe(true);
    await insert("09:30", { walkIn: true });
    await insert("09:40", { status: "cancelled" });
    // Back to back is not an overlap.
    await insert("10:00");
    const held = await api.db.select().from(appointments).where(eq(appointments.doctorId, doctor.user.id));
    expect(held).toHaveLength(4);
  });

  it("puts on the search's card the first slot booking would take: past full days, absences and closed days", async () => {
    const doctor = await api.createDoctor({ username: "Dr Next Slot" });
    const card = async () =>
      (
        (await api.request("GET", `/doctor?id=${doctor.user.id}`, { token: patient.token })).body as {
          doctors: { nextSlot: { date: string; time: string } | null }[];
        }
      ).doctors[0].nextSlot;
    const first = await card();
    expect(first).not.toBeNull();
    // That slot books; the card then moves on to the next one the list shows as free.
    const book = (date: string, time: string) =>
      api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time },
      });
    expect((await book(first!.date, first!.time)).status).toBe(201);
    const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${first!.date}`, {
      answer: daySlots,
      token: patient.token,
    });
    // The day's next free start, or (late in the day, none left) a later day's.
    const nextFree = slots.body.find((s) => s.available);
    expect(await card()).toEqual(
      nextFree
        ? { date: first!.date, time: nextFree.iso }
        : expect.objectContaining({ date: expect.not.stringContaining(first!.date) }),
    );
    // Away for the next 30 days: the first slot after the absence.
    expect(
      (
        await api.request("POST", "/doctor/absences", {
          token: doctor.token,
          body: { from: first!.date, to: futureDate(30), cancelAppointments: true },
        })
      ).status,
    ).toBe(201);
    const after = await card();
    expect(after!.date > futureDate(30)).toBe(true);
    expect(
      (
        await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${after!.date}`, {
          answer: daySlots,
          token: patient.token,
        })
      ).body.find((s) => s.available)?.iso,
    ).toBe(after!.time);
    // No day offered: no next slot.
    await putPlan(doctor, {
      week: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] },
    });
    expect(await card()).toBeNull();
  });

  /**
   * 100 patients book the last free slot of a doctor's day at once; `meanwhile` runs while their
   * requests are under way. Exactly one gets it, the 99 others 409 slot_taken, one row holds it and
   * the day shows no free slot.
   */
  async function lastSlotRace(meanwhile: (doctorId: string) => Promise<void> = async () => {}) {
    const doctor = await newDoctor();
    const date = futureDate(9);
    await api.db.update(workingPlans).set({ minimumNoticeHours: 0 }).where(eq(workingPlans.doctorId, doctor.user.id));
    for (const time of SLOTS.slice(0, -1)) {
      expect(
        (
          await api.request("POST", "/appointment", {
            token: patient.token,
            body: { doctorId: doctor.user.id, type: "online", date, time },
          })
        ).status,
      ).toBe(201);
    }
    const last = SLOTS.at(-1)!;
    const patients = await Promise.all(Array.from({ length: 100 }, () => api.createPatient()));
    const sent = Promise.all(
      patients.map((p) =>
        api.request("POST", "/appointment", {
          token: p.token,
          body: { doctorId: doctor.user.id, type: "in-person", date, time: last },
        }),
      ),
    );
    await meanwhile(doctor.user.id);
    const answers = await sent;
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, refusal(a).code])).toEqual(
      Array.from({ length: 99 }, () => [409, "slot_taken"]),
    );
    const held = await api.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          eq(appointments.doctorId, doctor.user.id),
          eq(appointments.startsAt, zonedInstant(date, last)),
          inArray(appointments.status, ["pending", "confirmed"]),
        ),
      );
    expect(held).toHaveLength(1);
    const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
      answer: daySlots,
      token: patient.token,
    });
    expect(slots.body.every((s) => !s.available && s.reason === "slot_taken")).toBe(true);
  }

  // PostgreSQL: the bookings' transactions really overlap. The doctor's plan row is held from another
  // connection until several bookings wait on it inside their transactions (seen in
  // pg_stat_activity), then let go: they go on together to the check and the insert.
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "gives exactly one of 100 concurrent bookings of the last free slot of a day, and 409 slot_taken to the others",
    async () => {
      const other = await api.reopen();
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let holding: Promise<unknown> = Promise.resolve();
        await lastSlotRace(async (doctorId) => {
          let locked!: () => void;
          const lockTaken = new Promise<void>((resolve) => (locked = resolve));
          holding = other.db.transaction(async (tx) => {
            await tx.execute(sql`select 1 from working_plans where doctor_id = ${doctorId} for update`);
            locked();
            await held;
          });
          await lockTaken;
          // Generous: the requests only have to reach the lock; without two of them there, fail.
          let waiting = 0;
          for (const deadline = Date.now() + 30_000; waiting < 2 && Date.now() < deadline; ) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            const [row] = rowsOf<{ n: number }>(
              await other.db.execute(sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`),
            );
            waiting = row!.n;
          }
          release();
          expect(waiting, "bookings waiting on the doctor's plan at once").toBeGreaterThanOrEqual(2);
        });
        await holding;
      } finally {
        await other.close();
      }
    },
    120_000,
  );

  // PGlite has one connection: the 100 requests are under way at once in the API, but their
  // transactions run one after another. This proves the answers once the slot is taken (one 201,
  // 99 slot_taken, one row), not the locks between transactions: the PostgreSQL run above does.
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    "gives one of 100 bookings of the last free slot sent at once, and slot_taken to the others, their transactions one at a time",
    async () => {
      await lastSlotRace();
    },
    120_000,
  );

  it("never lets an absence and a booking of its day both pass when they come at once", async () => {
    const doctor = await newDoctor();
    const date = futureDate(11);
    const [booking, absence] = await Promise.all([
      api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time: "09:00" },
      }),
      api.request("POST", "/doctor/absences", { token: doctor.token, body: { from: date, to: date } }),
    ]);
    // One of the two came first; the other saw it.
    expect([booking.status, absence.status].sort()).toEqual([201, 409]);
    expect(booking.status === 409 ? refusal(booking).code : refusal(absence).code).toBe(
      booking.status === 409 ? "doctor_absent" : "appointments_in_period",
    );
  });
});
