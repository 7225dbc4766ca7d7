// The clinic's zone is configuration (APP_TIMEZONE). Run in a zone with daylight saving, the API
// lists, books and shows each slot at its wall-clock time with the offset of its own day, on both
// sides of a change (Paris changes on 28 March and 31 October 2027, Los Angeles on 14 March 2027 at
// 10:00 UTC, after the UTC reading of its 09:00 slot).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "../config.ts";
import { UNBOUND_BOOKINGS, startApi, type TestApi, type TestDoctor, type TestPatient } from "./test/harness.ts";
import { appointments, workingPlans } from "./db/schema.ts";
import { SLOTS, WEEKDAYS } from "../contract/constants.ts";
import { appointment, daySlots } from "../contract/appointment.ts";

function useZone(zone: string) {
  process.env.APP_TIMEZONE = zone;
  resetConfigForTests();
}

describe("APP_TIMEZONE with daylight saving", () => {
  let api: TestApi;
  let patient: TestPatient;
  let doctor: TestDoctor;
  const before = process.env.APP_TIMEZONE;

  beforeAll(async () => {
    useZone("Europe/Paris");
    api = await startApi({ bookingLimits: UNBOUND_BOOKINGS });
    patient = await api.createPatient();
    doctor = await api.createDoctor({ username: "Dr Paris" });
    // The changes fall on Sundays, months ahead: this doctor works every day, two years ahead.
    const everyDay = Object.fromEntries(WEEKDAYS.map((day) => [day, [...SLOTS]]));
    await api.db
      .update(workingPlans)
      .set({ week: everyDay as typeof workingPlans.$inferSelect.week, bookingHorizonDays: 730 })
      .where(eq(workingPlans.doctorId, doctor.user.id));
  });
  afterAll(async () => {
    await api.close();
    if (before === undefined) delete process.env.APP_TIMEZONE;
    else process.env.APP_TIMEZONE = before;
    resetConfigForTests();
  });

  const slotsOf = async (date: string) =>
    (
      await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
        answer: daySlots,
        token: patient.token,
      })
    ).body;

  it("Paris: lists the six slots of each day with that day's offset", async () => {
    for (const [date, offset] of [
      ["2027-03-27", "+01:00"],
      ["2027-03-28", "+02:00"],
      ["2027-10-30", "+02:00"],
      ["2027-10-31", "+01:00"],
    ]) {
      expect(await slotsOf(date!), date).toEqual(
        SLOTS.map((time) => ({
          time,
          // An hour's visit: the default plan's; a day of the change keeps wall-clock hours.
          end: `${String(Number(time.slice(0, 2)) + 1).padStart(2, "0")}:00`,
          iso: `${date}T${time}:00${offset}`,
          available: true,
          reason: null,
        })),
      );
    }
  });

  it("Paris: books 09:00 on the day of the change at 09:00 Paris time, and shows it so", async () => {
    for (const [date, utc, offset] of [
      ["2027-03-28", "07:00", "+02:00"],
      ["2027-10-31", "08:00", "+01:00"],
    ]) {
      const booked = await api.request("POST", "/appointment", {
        answer: appointment,
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date, time: "09:00" },
      });
      expect(booked.status).toBe(201);
      expect(booked.body.time).toBe(`${date}T09:00:00${offset}`);
      const [row] = await api.db
        .select({ startsAt: appointments.startsAt })
        .from(appointments)
        .where(eq(appointments.id, booked.body.id));
      expect(row!.startsAt.toISOString()).toBe(`${date}T${utc}:00.000Z`);
      expect((await slotsOf(date!)).find((s) => s.time === "09:00")!.available).toBe(false);
    }
  });

  it("Paris: takes a timestamp in the other season's offset as the slot it names", async () => {
    // 10:00 Paris on 28 March 2027 is 08:00 UTC; written in winter's +01:00 it reads 09:00, a slot of the same day.
    const booked = await api.request("POST", "/appointment", {
      answer: appointment,
      token: patient.token,
      body: { doctorId: doctor.user.id, type: "online", date: "2027-03-28", time: "2027-03-28T09:00:00+01:00" },
    });
    expect(booked.status).toBe(201);
    expect(booked.body.time).toBe("2027-03-28T10:00:00+02:00");
  });

  it("Los Angeles: books 09:00 on the day of the change at 09:00 Pacific time", async () => {
    useZone("America/Los_Angeles");
    try {
      expect((await slotsOf("2027-03-13"))[0].iso).toBe("2027-03-13T09:00:00-08:00");
      expect((await slotsOf("2027-03-14"))[0].iso).toBe("2027-03-14T09:00:00-07:00");
      const booked = await api.request("POST", "/appointment", {
        answer: appointment,
        token: patient.token,
        body: { doctorId: doctor.user.id, type: "online", date: "2027-03-14", time: "09:00" },
      });
      expect(booked.status).toBe(201);
      expect(booked.body.time).toBe("2027-03-14T09:00:00-07:00");
      const [row] = await api.db
        .select({ startsAt: appointments.startsAt })
        .from(appointments)
        .where(eq(appointments.id, booked.body.id));
      expect(row!.startsAt.toISOString()).toBe("2027-03-14T16:00:00.000Z");
    } finally {
      useZone("Europe/Paris");
    }
  });
});
