// GET /appointment/slots shows exactly what can be booked (docs/product.md, Availability): for
// random working plans of random visit lengths, absences and closed days, every start of 12 random days is booked, and the
// booking is accepted exactly when the list said the slot was available, refused with the reason it
// gave otherwise (fast-check).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { daySlots } from "../../contract/appointment.ts";
import { closureList } from "../../contract/availability.ts";
import { UNBOUND_BOOKINGS, refusal, setUpApi } from "../test/harness.ts";
import { clinicToday } from "../time.ts";
import { randomPlan } from "./plan-arbitrary.ts";

const DAY = 86_400_000;
/** The date `offset` days from the clinic's today. */
const dayFrom = (offset: number) =>
  new Date(Date.parse(`${clinicToday()}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);

const plan = randomPlan(90);
// Days from yesterday to past the longest horizon drawn; the absences and closed days fall on some
// of them, where they change what can be booked.
const world = fc
  .uniqueArray(fc.noBias(fc.integer({ min: -1, max: 100 })), { minLength: 12, maxLength: 12 })
  .chain((days) =>
    fc.record({
      plan,
      days: fc.constant(days),
      absences: fc.array(fc.tuple(fc.constantFrom(...days.filter((d) => d >= 0)), fc.integer({ min: 0, max: 4 })), {
        maxLength: 3,
      }),
      closures: fc.subarray(
        days.filter((d) => d >= 0),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  );

describe("GET /appointment/slots and booking", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });

  it("agree on every start of 12 random days, whatever the plan, absences and closed days", async () => {
    const admin = await api.createAdmin();
    const holidays = new Set(
      (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body.closures.map(
        (c) => c.date,
      ),
    );
    let booked = 0;
    await fc.assert(
      fc.asyncProperty(world, async ({ plan, absences, closures, days }) => {
        const doctor = await api.createDoctor();
        const patient = await api.createPatient();
        expect((await api.request("PUT", "/doctor/working-plan", { token: doctor.token, body: plan })).status).toBe(
          200,
        );
        for (const [start, length] of absences) {
          const res = await api.request("POST", "/doctor/absences", {
            token: doctor.token,
            body: { from: dayFrom(start), to: dayFrom(start + length) },
          });
          expect(res.status).toBe(201);
        }
        const added: string[] = [];
        for (const day of closures.map(dayFrom).filter((d) => !holidays.has(d))) {
          const res = await api.request("POST", "/admin/closures", {
            token: admin.token,
            body: { date: day, reason: "Random", cancelAppointments: true },
          });
          expect(res.status).toBe(201);
          added.push((res.body as { closure: { id: string } }).closure.id);
        }
        try {
          for (const date of days.map(dayFrom)) {
            const slots = await api.request("GET", `/appointment/slots?doctorId=${doctor.user.id}&date=${date}`, {
              answer: daySlots,
              token: patient.token,
            });
            expect(slots.status).toBe(200);
            for (const slot of slots.body) {
              const res = await api.request("POST", "/appointment", {
                token: patient.token,
                body: { doctorId: doctor.user.id, type: "online", date, time: slot.time },
              });
              const said = `${date} ${slot.time}: listed ${slot.reason ?? "available"}`;
              // A started slot is the request's mistake (400 past_date, as before); every other refusal is 409.
              const expected = slot.available ? [201, null] : [slot.reason === "past_date" ? 400 : 409, slot.reason];
              expect([res.status, res.status === 201 ? null : refusal(res).code], said).toEqual(expected);
              booked += Number(res.status === 201);
            }
          }
        } finally {
          for (const id of added) await api.request("DELETE", `/admin/closures/${id}`, { token: admin.token });
        }
      }),
      // Each run books up to 180 slots, seconds of work: a few runs, and a failure is reported as
      // found (shrinking it would replay runs for minutes).
      { numRuns: 3, endOnFailure: true },
    );
    // Not a vacuous agreement: some slots were free and taken.
    expect(booked).toBeGreaterThan(0);
  }, 300_000);
});
