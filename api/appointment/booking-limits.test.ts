// No slot hoarding (docs/product.md, Booking limits), on PGlite and PostgreSQL: a patient booking for
// themselves holds at most 2 upcoming appointments with one doctor and 6 in all (the deployment's
// defaults), never two at one start time, directly or by accepting a proposal; the staff's booking
// on a patient's behalf is not bound.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { futureDate, refusal, setUpApi, type TestApi, type TestPatient, type TestReference } from "../test/harness.ts";
import { appointments, proposals } from "../db/schema.ts";
import { SLOTS } from "../../contract/constants.ts";
import type { ErrorCode } from "../../contract/errors.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "./test-factories.ts";
import { bookDirect } from "./booking.ts";
import { zonedInstant } from "../time.ts";

/** Books `doctorId` at `time` on the `day`-th open day for `patient`; the answer's status and code. */
async function book(api: TestApi, patient: TestPatient, doctorId: string, day: number, time: string = SLOTS[0]) {
  const res = await api.request("POST", "/appointment", {
    token: patient.token,
    body: { doctorId, type: "online", date: futureDate(day), time },
  });
  return { status: res.status, code: res.status === 201 ? undefined : refusal(res).code };
}

const refused = (code: ErrorCode) => ({ status: 409, code });
const booked = { status: 201, code: undefined };

describe("a patient's booking limits (defaults: 2 per doctor, 6 in all)", () => {
  const api = setUpApi();
  let ref: TestReference;
  const doctors: string[] = [];

  beforeAll(async () => {
    ref = await api.reference();
    for (let i = 0; i < 4; i++) doctors.push((await api.createDoctor({ specialities: ["Cardiology"] })).user.id);
  });

  it("refuses a third upcoming appointment with one doctor, and books another doctor", async () => {
    const patient = await api.createPatient();
    const [a, b] = doctors;
    expect(await book(api, patient, a, 3, "09:00")).toEqual(booked);
    expect(await book(api, patient, a, 4, "10:00")).toEqual(booked);
    expect(await book(api, patient, a, 5, "11:00")).toEqual(refused("booking_limit_doctor"));
    expect(await book(api, patient, b, 5, "11:00")).toEqual(booked);
  });

  it("refuses a seventh upcoming appointment in all", async () => {
    const patient = await api.createPatient();
    let day = 6;
    for (const doctor of doctors.slice(0, 3)) {
      expect(await book(api, patient, doctor, day++, "14:00")).toEqual(booked);
      expect(await book(api, patient, doctor, day++, "14:00")).toEqual(booked);
    }
    expect(await book(api, patient, doctors[3], day, "14:00")).toEqual(refused("booking_limit_total"));
  });

  it("refuses a second appointment at the same start time, with another doctor", async () => {
    const patient = await api.createPatient();
    expect(await book(api, patient, doctors[0], 14, "15:00")).toEqual(booked);
    expect(await book(api, patient, doctors[1], 14, "15:00")).toEqual(refused("booking_same_time"));
    expect(await book(api, patient, doctors[1], 14, "16:00")).toEqual(booked);
  });

  it("counts neither cancelled nor past appointments, nor open requests", async () => {
    const patient = await api.createPatient();
    const [a] = doctors;
    const patientId = patient.user.id;
    const past = new Date(Date.now() - 7 * 86_400_000);
    await insertAppointment(api.db, { patientId, doctorId: a, status: "confirmed", startsAt: past });
    await insertAppointment(api.db, { patientId, doctorId: a, status: "cancelled" });
    await insertOpenRequest(api.db, { patientId, specialityId: ref.speciality("Cardiology").id });
    expect(await book(api, patient, a, 15, "09:00")).toEqual(booked);
    expect(await book(api, patient, a, 16, "09:00")).toEqual(booked);
    // Cancelling one frees its place under the limit.
    const [first] = await api.db
      .select()
      .from(appointments)
      .where(
        and(eq(appointments.patientId, patientId), eq(appointments.startsAt, zonedInstant(futureDate(15), "09:00"))),
      );
    const cancel = await api.request("PATCH", `/appointment/${first.id}`, {
      token: patient.token,
      body: { status: "cancelled" },
    });
    expect(cancel.status).toBe(200);
    expect(await book(api, patient, a, 17, "09:00")).toEqual(booked);
  });

  it("leaves other patients free to book the same doctor", async () => {
    const [a] = doctors;
    const full = await api.createPatient();
    expect(await book(api, full, a, 18, "09:00")).toEqual(booked);
    expect(await book(api, full, a, 18, "10:00")).toEqual(booked);
    expect(await book(api, await api.createPatient(), a, 18, "11:00")).toEqual(booked);
  });

  it("does not bind a booking made on the patient's behalf (limits null: the front desk)", async () => {
    const patient = await api.createPatient();
    const [a] = doctors;
    for (const time of ["09:00", "10:00", "11:00"]) {
      await bookDirect(
        api.db,
        api.deps.mailer,
        patient.user.id,
        { doctorId: a, type: "online", date: futureDate(19), time, category: "direct" },
        null,
      );
    }
    expect(await book(api, patient, a, 20, "09:00")).toEqual(refused("booking_limit_doctor"));
  });

  describe("accepting a proposal books for oneself", () => {
    const accept = (patient: TestPatient, proposalId: string) =>
      api.request("PATCH", `/appointment-proposal/${proposalId}/accept`, { token: patient.token });
    const openRequestWith = async (patient: TestPatient, doctorId: string) => {
      const request = await insertOpenRequest(api.db, {
        patientId: patient.user.id,
        specialityId: ref.speciality("Cardiology").id,
      });
      return { request, proposal: await insertProposal(api.db, request.id, doctorId) };
    };

    it("refuses a third with the proposing doctor and leaves the request as it was", async () => {
      const patient = await api.createPatient();
      const [a] = doctors;
      expect(await book(api, patient, a, 21, "09:00")).toEqual(booked);
      expect(await book(api, patient, a, 22, "09:00")).toEqual(booked);
      const { request, proposal } = await openRequestWith(patient, a);
      const res = await accept(patient, proposal.id);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("booking_limit_doctor");
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, request.id));
      expect(row).toMatchObject({ doctorId: null, status: "proposed" });
      const [p] = await api.db.select().from(proposals).where(eq(proposals.id, proposal.id));
      expect(p.status).toBe("pending");
    });

    it("refuses one at the start time of an appointment already held", async () => {
      const patient = await api.createPatient();
      const { request, proposal } = await openRequestWith(patient, doctors[1]);
      await insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: doctors[0],
        status: "confirmed",
        startsAt: request.startsAt,
      });
      const res = await accept(patient, proposal.id);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("booking_same_time");
    });

    it("counts an accepted proposal like a booking, and refuses a seventh in all", async () => {
      const patient = await api.createPatient();
      const accepted = await openRequestWith(patient, doctors[0]);
      expect((await accept(patient, accepted.proposal.id)).status).toBe(200);
      let day = 23;
      expect(await book(api, patient, doctors[0], day++)).toEqual(booked);
      expect(await book(api, patient, doctors[0], day++)).toEqual(refused("booking_limit_doctor"));
      for (const doctor of doctors.slice(1, 3)) {
        expect(await book(api, patient, doctor, day++)).toEqual(booked);
        expect(await book(api, patient, doctor, day++)).toEqual(booked);
      }
      const { proposal } = await openRequestWith(patient, doctors[3]);
      const res = await accept(patient, proposal.id);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("booking_limit_total");
    });
  });

  // On PGlite the API runs one statement at a time, so these only show the rule holds; on
  // PostgreSQL the bookings really run together, and only the patient's lock keeps them in turn.
  describe("under concurrency", () => {
    it("lets one of parallel bookings with one doctor through when one place is left", async () => {
      const patient = await api.createPatient();
      const [a] = doctors;
      expect(await book(api, patient, a, 30, "09:00")).toEqual(booked);
      const results = await Promise.all(SLOTS.map((time) => book(api, patient, a, 31, time)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.code === "booking_limit_doctor")).toHaveLength(SLOTS.length - 1);
    });

    it("lets one of parallel bookings at one start time with four doctors through", async () => {
      const patient = await api.createPatient();
      const results = await Promise.all(doctors.map((doctor) => book(api, patient, doctor, 32, "16:00")));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.code === "booking_same_time")).toHaveLength(doctors.length - 1);
    });

    it("lets parallel acceptances by one patient hold the limit per doctor", async () => {
      const patient = await api.createPatient();
      const [a] = doctors;
      const offers = [];
      for (let i = 0; i < 4; i++) {
        const request = await insertOpenRequest(api.db, {
          patientId: patient.user.id,
          specialityId: ref.speciality("Cardiology").id,
        });
        offers.push(await insertProposal(api.db, request.id, a));
      }
      const results = await Promise.all(
        offers.map((p) => api.request("PATCH", `/appointment-proposal/${p.id}/accept`, { token: patient.token })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      const held = await api.db
        .select()
        .from(appointments)
        .where(and(eq(appointments.patientId, patient.user.id), inArray(appointments.status, ["confirmed"])));
      expect(held).toHaveLength(2);
    });
  });
});

describe("the booking limits are the deployment's settings", () => {
  const api = setUpApi({ bookingLimits: { perDoctor: 1, total: 2 } });

  it("applies BOOKING_LIMIT_PER_DOCTOR and BOOKING_LIMIT_TOTAL as given", async () => {
    const patient = await api.createPatient();
    const [a, b, c] = await Promise.all([api.createDoctor(), api.createDoctor(), api.createDoctor()]);
    expect(await book(api, patient, a.user.id, 3)).toEqual(booked);
    expect(await book(api, patient, a.user.id, 4)).toEqual(refused("booking_limit_doctor"));
    expect(await book(api, patient, b.user.id, 4)).toEqual(booked);
    expect(await book(api, patient, c.user.id, 5)).toEqual(refused("booking_limit_total"));
  });
});
