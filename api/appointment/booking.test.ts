import { beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import {
  UNBOUND_BOOKINGS,
  futureDate,
  refusal,
  setUpApi,
  type TestDoctor,
  type TestPatient,
  type TestReference,
} from "../test/harness.ts";
import { appointments, countries, doctors } from "../db/schema.ts";
import { SLOTS } from "../../contract/constants.ts";
import { appointment, daySlots } from "../../contract/appointment.ts";

const yesterday = () => new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);

describe("POST /appointment and GET /appointment/slots", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });
  let ref: TestReference;
  let patient: TestPatient;
  let gp: TestDoctor;
  let cardiologist: TestDoctor;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient();
    gp = await api.createDoctor({ username: "Dr General", specialities: ["General practice"] });
    cardiologist = await api.createDoctor({ username: "Dr Heart", specialities: ["Cardiology"], city: "Buea" });
    await api.db
      .update(doctors)
      .set({ dutyHospital: "Buea Regional Hospital" })
      .where(eq(doctors.userId, cardiologist.user.id));
  });

  const book = (body: Record<string, unknown>, token = patient.token, headers?: Record<string, string>) =>
    api.request("POST", "/appointment", { answer: appointment, body, token, headers });
  const rowsFor = async (doctorId: string) =>
    (await api.db.select({ n: count() }).from(appointments).where(eq(appointments.doctorId, doctorId)))[0].n;

  describe("direct booking", () => {
    it("books an online slot as pending with the fee the server decides", async () => {
      const date = futureDate(3);
      const res = await book({
        doctorId: gp.user.id,
        type: "online",
        date,
        time: "09:00",
        // Decided by the server, whatever the client sends:
        status: "confirmed",
        price: 1,
        category: "direct",
        place: "My house",
        details: { deviceType: "phone", reason: "  Cough for a week  ", secret: "dropped" },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: "pending",
        type: "online",
        category: "direct",
        date,
        time: `${date}T09:00:00+01:00`,
        place: null,
        City: null,
        price: 3000,
        doctorId: gp.user.id,
        patientId: patient.user.id,
        specialityId: ref.speciality("General practice").id,
        Doctor: { id: gp.user.id, username: "Dr General" },
        details: { deviceType: "phone", reason: "Cough for a week" },
      });
      expect(res.body.details).not.toHaveProperty("secret");
    });

    it("takes place, city and country from the doctor for an in-person visit, and charges a specialist 6000", async () => {
      const date = futureDate(3);
      const res = await book({
        doctorId: cardiologist.user.id,
        type: "in-person",
        date,
        time: "10:00",
        place: "elsewhere",
        city: 1,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        place: "Buea Regional Hospital",
        city: "Buea",
        country: "Cameroon",
        City: { id: ref.city("Buea").id },
        Country: { id: ref.cameroon.id, code: "CM" },
        price: 6000,
        Speciality: { name: "Cardiology", nameFr: "Cardiologie" },
      });
    });

    it("accepts the time as an ISO timestamp in any offset naming a slot", async () => {
      const date = futureDate(4);
      const res = await book({ doctorId: gp.user.id, type: "online", date, time: `${date}T13:00:00Z` });
      expect(res.status).toBe(201);
      expect(res.body.time).toBe(`${date}T14:00:00+01:00`);
    });

    it("refuses a missing or unknown type, a past date, a bad slot and a missing doctor", async () => {
      const date = futureDate(5);
      const base = { doctorId: gp.user.id, type: "online", date, time: "11:00" };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, type: undefined }, "type_required"],
        [{ ...base, type: "" }, "type_required"],
        [{ ...base, type: "emergency" }, "invalid_type"],
        [{ ...base, date: yesterday() }, "past_date"],
        [{ ...base, date: "2026-13-45" }, "invalid_date"],
        [{ ...base, date: undefined }, "invalid_date"],
        [{ ...base, date: "2030-02-31" }, "invalid_date"],
        // Off the plans' 5-minute grid; 12:00, on it but not in the plan, is the rule's 409 (below).
        [{ ...base, time: "09:07" }, "invalid_slot"],
        [{ ...base, time: "25:00" }, "invalid_slot"],
        [{ ...base, time: `${date}T09:00:00` }, "invalid_slot"],
        [{ ...base, time: undefined }, "invalid_slot"],
        [{ ...base, doctorId: undefined }, "doctor_required"],
        [{ ...base, doctorId: "nope" }, "doctor_required"],
        [{ ...base, details: { deviceType: "fax" } }, "invalid_details"],
        [{ ...base, details: { reason: "x".repeat(1001) } }, "invalid_details"],
        [{ ...base, specialityId: ref.speciality("Dentistry").id }, "invalid_speciality"],
      ];
      for (const [body, code] of cases) {
        const res = await book(body);
        expect({ code: refusal(res).code, status: res.status }).toEqual({ code, status: 400 });
        expect(refusal(res).message).toEqual(expect.any(String));
      }
      const offPlan = await book({ ...base, time: "12:00" });
      expect([offPlan.status, refusal(offPlan).code]).toEqual([409, "slot_not_offered"]);
      expect((await book(base)).status).toBe(201);
    });

    it("answers a missing type with its own code and message", async () => {
      const res = await book({ doctorId: gp.user.id, date: futureDate(5), time: "14:00" });
      expect(refusal(res)).toEqual({ message: "Type is required", code: "type_required" });
    });

    it("refuses unverified and unknown doctors", async () => {
      const date = futureDate(5);
      for (const verification of ["pending", "rejected"] as const) {
        const doctor = await api.createDoctor({ verification });
        const res = await book({ doctorId: doctor.user.id, type: "online", date, time: "09:00" });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: "This doctor is not yet verified", code: "doctor_unverified" });
      }
      const unknown = await book({
        doctorId: "00000000-0000-4000-8000-000000000000",
        type: "online",
        date,
        time: "09:00",
      });
      expect(unknown.status).toBe(404);
      expect(refusal(unknown).code).toBe("doctor_not_found");
      // A patient's id is not a doctor's.
      expect((await book({ doctorId: patient.user.id, type: "online", date, time: "09:00" })).status).toBe(404);
    });

    it("answers 409 for a taken slot, and frees the slot when the appointment is cancelled", async () => {
      const date = futureDate(6);
      const first = await book({ doctorId: gp.user.id, type: "online", date, time: "15:00" });
      expect(first.status).toBe(201);
      const other = await api.createPatient();
      const second = await book(
        { doctorId: gp.user.id, type: "in-person", date, time: `${date}T15:00:00+01:00` },
        other.token,
      );
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ message: "This time slot is no longer available", code: "slot_taken" });
      await api.db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, first.body.id));
      expect((await book({ doctorId: gp.user.id, type: "online", date, time: "15:00" }, other.token)).status).toBe(201);
    });

    it("gives exactly one of 50 concurrent bookings of one slot, and 409 to the other 49", async () => {
      const doctor = await api.createDoctor({ username: "Dr Busy" });
      const patients = await Promise.all(Array.from({ length: 50 }, () => api.createPatient()));
      const date = futureDate(8);
      const answers = await Promise.all(
        patients.map((p) => book({ doctorId: doctor.user.id, type: "online", date, time: "09:00" }, p.token)),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      expect(answers.filter((a) => a.status === 409).every((a) => refusal(a).code === "slot_taken")).toBe(true);
      expect(await rowsFor(doctor.user.id)).toBe(1);
    });

    it("books once when the same Idempotency-Key is replayed", async () => {
      const doctor = await api.createDoctor({ username: "Dr Once" });
      const body = { doctorId: doctor.user.id, type: "online", date: futureDate(9), time: "16:00" };
      const headers = { "idempotency-key": "book-once-0001" };
      const first = await book(body, patient.token, headers);
      const replay = await book(body, patient.token, headers);
      expect(first.status).toBe(201);
      expect(replay).toEqual(first);
      expect(await rowsFor(doctor.user.id)).toBe(1);
      // A new key is a new attempt: the slot is now taken.
      expect((await book(body, patient.token, { "idempotency-key": "book-once-0002" })).status).toBe(409);
    });

    it("is for patients only", async () => {
      const body = { doctorId: gp.user.id, type: "online", date: futureDate(10), time: "09:00" };
      expect((await api.request("POST", "/appointment", { body })).status).toBe(401);
      expect((await book(body, gp.token)).status).toBe(403);
      expect((await book(body, (await api.createAdmin()).token)).status).toBe(403);
    });
  });

  describe("open request (category random)", () => {
    const request = (extra: Record<string, unknown> = {}) => ({
      category: "random",
      specialityId: ref.speciality("Dermatology").id,
      type: "online",
      date: futureDate(4),
      time: "14:00",
      ...extra,
    });

    it("creates a pending request without a doctor or price, at the slot the patient chose", async () => {
      const date = futureDate(4);
      const res = await book(
        request({
          doctorId: gp.user.id,
          status: "confirmed",
          price: 5,
          details: {
            deviceType: "tablet",
            internetQuality: "fair",
            videoPreference: "any",
            residenceAddress: " Akwa ",
            reason: "Rash",
            x: 1,
          },
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        category: "random",
        status: "pending",
        type: "online",
        doctorId: null,
        Doctor: null,
        price: null,
        date,
        time: `${date}T14:00:00+01:00`,
        Speciality: { name: "Dermatology" },
      });
      expect(res.body.details).toEqual({
        deviceType: "tablet",
        internetQuality: "fair",
        videoPreference: "any",
        residenceAddress: "Akwa",
        reason: "Rash",
      });
    });

    it("keeps the place, city and country the patient chose for an in-person request", async () => {
      const res = await book(request({ type: "in-person", city: ref.city("Kribi").id, place: "  Near the port " }));
      expect(res.status).toBe(201);
      // The country follows from the city.
      expect(res.body).toMatchObject({ place: "Near the port", city: "Kribi", country: "Cameroon" });
      const both = await book(
        request({ type: "in-person", city: String(ref.city("Limbe").id), country: String(ref.cameroon.id) }),
      );
      expect(both.body).toMatchObject({ city: "Limbe", country: "Cameroon" });
    });

    it("takes only the six slots of a booking, given as HH:mm or as a timestamp with its offset", async () => {
      const date = futureDate(5);
      for (const time of ["13:37", "22:30", "08:59", "12:00", `${date}T13:37:00+01:00`, `${date}T21:30:00Z`]) {
        const res = await book(request({ date, time }));
        expect({ time, status: res.status, code: refusal(res).code }).toEqual({
          time,
          status: 400,
          code: "invalid_slot",
        });
      }
      const slot = await book(request({ date, time: `${date}T08:00:00Z` }));
      expect(slot.status).toBe(201);
      expect(slot.body.time).toBe(`${date}T09:00:00+01:00`);
    });

    it("refuses a missing or unknown speciality, a missing type, past times and a city of another country", async () => {
      const [gabon] = await api.db.select().from(countries).where(eq(countries.code, "GA"));
      const cases: [Record<string, unknown>, string][] = [
        [request({ specialityId: undefined }), "speciality_required"],
        [request({ specialityId: 99999 }), "invalid_speciality"],
        [request({ specialityId: "cardio" }), "invalid_speciality"],
        [request({ type: undefined }), "type_required"],
        [request({ date: yesterday() }), "past_date"],
        [request({ time: "25:99" }), "invalid_slot"],
        [request({ time: "not a time" }), "invalid_slot"],
        [request({ date: "2030-02-30" }), "invalid_date"],
        [request({ city: ref.city("Douala").id, country: gabon.id }), "city_country_mismatch"],
        [request({ city: 99999 }), "invalid_city"],
        [request({ country: 99999 }), "invalid_country"],
        [request({ details: { videoPreference: "skype" } }), "invalid_details"],
      ];
      for (const [body, code] of cases) {
        const res = await book(body);
        expect({ code: refusal(res).code, status: res.status }).toEqual({ code, status: 400 });
      }
    });
  });

  describe("GET /appointment/slots", () => {
    const slots = (query: string, token = patient.token) =>
      api.request("GET", `/appointment/slots${query}`, { answer: daySlots, token });

    it("lists the six slots with the ones taken by active appointments unavailable", async () => {
      const doctor = await api.createDoctor({ username: "Dr Slots" });
      const date = futureDate(12);
      expect((await book({ doctorId: doctor.user.id, type: "online", date, time: "10:00" })).status).toBe(201);
      const cancelled = await book({ doctorId: doctor.user.id, type: "online", date, time: "14:00" });
      await api.request("PATCH", `/appointment/${cancelled.body.id}`, {
        token: patient.token,
        body: { status: "cancelled" },
      });
      const res = await slots(`?doctorId=${doctor.user.id}&date=${date}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        SLOTS.map((time) => ({
          time,
          // An hour each, the default plan's visits.
          end: `${String(Number(time.slice(0, 2)) + 1).padStart(2, "0")}:00`,
          iso: `${date}T${time}:00+01:00`,
          available: time !== "10:00",
          reason: time === "10:00" ? "slot_taken" : null,
        })),
      );
      // Other roles see the same availability (the doctor's own view of a day).
      expect((await slots(`?doctorId=${doctor.user.id}&date=${date}`, doctor.token)).body).toEqual(res.body);
    });

    it("marks every slot of a past day unavailable", async () => {
      const res = await slots(`?doctorId=${gp.user.id}&date=${yesterday()}`);
      expect(res.body.every((s: { available: boolean }) => !s.available)).toBe(true);
    });

    it("refuses bad input and unknown doctors", async () => {
      expect((await slots(`?date=${futureDate(3)}`)).status).toBe(400);
      expect((await slots(`?doctorId=${gp.user.id}&date=tomorrow`)).status).toBe(400);
      expect((await slots(`?doctorId=${gp.user.id}&date=2026-02-31`)).status).toBe(400);
      expect((await slots(`?doctorId=00000000-0000-4000-8000-000000000000&date=${futureDate(3)}`)).status).toBe(404);
      expect((await api.request("GET", `/appointment/slots?doctorId=${gp.user.id}&date=${futureDate(3)}`)).status).toBe(
        401,
      );
    });
  });
});
