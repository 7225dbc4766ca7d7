import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  futureDate,
  refusal,
  setUpApi,
  type TestDoctor,
  type TestPatient,
  type TestReference,
} from "../test/harness.ts";
import { matches } from "../test/contract-match.ts";
import { appointments, auditEvents, consultations, countries, notifications } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "../appointment/test-factories.ts";
import { doctorAppointment, doctorAppointmentPage } from "../../contract/appointment.ts";
import { doctorExport, doctorHome, doctorProfile } from "../../contract/doctor-profile.ts";

describe("the doctor's own /doctor calls", () => {
  const api = setUpApi();
  let ref: TestReference;
  let alice: TestPatient;
  let bruno: TestPatient;
  let cardiologist: TestDoctor;
  let colleague: TestDoctor;
  let generalist: TestDoctor;
  let unverified: TestDoctor;
  const ids: Record<string, string> = {};

  let made = 0;
  // A visit of its own each time (an hour apart and a minute more): no two of one doctor overlap.
  const at = (days: number) => new Date(Date.parse(`${futureDate(days)}T06:00:00Z`) + ++made * 61 * 60_000);

  beforeAll(async () => {
    ref = await api.reference();
    alice = await api.createPatient({ username: "Alice Ngono" });
    bruno = await api.createPatient({ username: "Bruno Eto" });
    cardiologist = await api.createDoctor({ username: "Dr Heart", specialities: ["Cardiology"] });
    colleague = await api.createDoctor({ username: "Dr Colleague", specialities: ["Cardiology"] });
    generalist = await api.createDoctor({ username: "Dr Anything", specialities: [] });
    unverified = await api.createDoctor({ verification: "pending", specialities: ["Cardiology"] });
    const cardiology = ref.speciality("Cardiology").id;
    const dermatology = ref.speciality("Dermatology").id;
    const mine = (patientId: string, status: "pending" | "confirmed" | "completed" | "cancelled", days: number) =>
      insertAppointment(api.db, {
        patientId,
        doctorId: cardiologist.user.id,
        specialityId: cardiology,
        status,
        startsAt: at(days),
      });
    ids.alicePending = (await mine(alice.user.id, "pending", 10)).id;
    ids.aliceConfirmed = (await mine(alice.user.id, "confirmed", 11)).id;
    ids.brunoPending = (await mine(bruno.user.id, "pending", 12)).id;
    ids.brunoCancelled = (await mine(bruno.user.id, "cancelled", 13)).id;
    ids.colleagues = (
      await insertAppointment(api.db, { patientId: alice.user.id, doctorId: colleague.user.id, startsAt: at(10) })
    ).id;
    const open = (
      patientId: string,
      specialityId: number,
      values: Omit<Partial<typeof appointments.$inferInsert>, "specialityId"> = {},
    ) => insertOpenRequest(api.db, { patientId, specialityId, startsAt: at(20), ...values });
    ids.openAlice = (await open(alice.user.id, cardiology)).id;
    ids.openBruno = (await open(bruno.user.id, cardiology)).id;
    ids.openDerm = (await open(bruno.user.id, dermatology)).id;
    ids.openPast = (await open(alice.user.id, cardiology, { startsAt: new Date(Date.now() - 86_400_000) })).id;
    ids.openCancelled = (await open(alice.user.id, cardiology, { status: "cancelled" })).id;
    // An answered request: it has a doctor now, so it is nobody's open request any more.
    ids.answered = (await open(alice.user.id, cardiology, { doctorId: colleague.user.id, status: "confirmed" })).id;
    ids.myProposal = (await insertProposal(api.db, ids.openBruno, cardiologist.user.id)).id;
  });

  const list = (token: string, query = "") =>
    api.request("GET", `/doctor/doctor_appointments${query}`, { answer: doctorAppointmentPage, token });
  const idsOf = (body: { appointments: { id: string }[] }) => body.appointments.map((a) => a.id).sort();

  it("tells a rejected doctor the admin's reason in their profile, and nobody else's", async () => {
    const admin = await api.createAdmin();
    const rejected = await api.createDoctor({ verification: "pending" });
    const silent = await api.createDoctor({ verification: "pending" });
    const reason = "The serial number is not in the medical council's register";
    expect(
      (
        await api.request("POST", `/admin/doctors/${rejected.user.id}/reject`, {
          token: admin.token,
          body: { reason: `  ${reason} ` },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api.request("POST", `/admin/doctors/${silent.user.id}/reject`, { token: admin.token, body: {} })).status,
    ).toBe(200);
    const info = (token: string) => api.request("GET", "/doctor/doctor-info", { answer: doctorProfile, token });
    expect((await info(rejected.token)).body).toMatchObject({ verification: "rejected", rejectionReason: reason });
    expect((await info(silent.token)).body).toMatchObject({ verification: "rejected", rejectionReason: null });
    expect((await info(cardiologist.token)).body).toMatchObject({ verification: "verified", rejectionReason: null });
    // Every doctor page reads it with the bell count.
    const summary = (token: string) => api.request("GET", "/doctor/summary", { answer: doctorHome, token });
    expect((await summary(rejected.token)).body).toMatchObject({ verification: "rejected", rejectionReason: reason });
    expect((await summary(silent.token)).body).toMatchObject({ verification: "rejected", rejectionReason: null });
    expect((await summary(cardiologist.token)).body).toMatchObject({ verification: "verified", rejectionReason: null });
  });

  describe("GET /doctor/doctor_appointments", () => {
    it("lists the appointments assigned to me by default (category direct), newest first, as a paged list", async () => {
      const res = await list(cardiologist.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 4, page: 1, limit: 50, totalPages: 1 });
      expect(res.body.appointments.map((a: { id: string }) => a.id)).toEqual([
        ids.brunoCancelled,
        ids.brunoPending,
        ids.aliceConfirmed,
        ids.alicePending,
      ]);
      expect(res.body.appointments[0]).toMatchObject({
        doctorId: cardiologist.user.id,
        Patient: { id: bruno.user.id, username: "Bruno Eto" },
        Speciality: { name: "Cardiology", nameFr: "Cardiologie" },
        myProposal: null,
      });
      expect(idsOf((await list(cardiologist.token, "?category=direct")).body)).toEqual(idsOf(res.body));
    });

    it("lists the open requests I may answer (category random): my specialities, future, still open, with myProposal", async () => {
      const res = await list(cardiologist.token, "?category=random");
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([ids.openAlice, ids.openBruno].sort());
      const byId = Object.fromEntries(res.body.appointments.map((a) => [a.id, a]));
      expect(byId[ids.openBruno]).toMatchObject({
        status: "proposed",
        doctorId: null,
        category: "random",
        myProposal: { id: ids.myProposal, status: "pending" },
      });
      expect(byId[ids.openAlice].myProposal).toBeNull();
      // A colleague of the same speciality sees them too, without my proposal.
      const theirs = await list(colleague.token, "?category=random");
      expect(theirs.body.appointments.every((a: { myProposal: unknown }) => a.myProposal === null)).toBe(true);
    });

    it("marks an open request on a slot I already hold (slotHeld), and gives me everything the patient wrote", async () => {
      const startsAt = at(30);
      const details = {
        reason: "Chest pain when climbing stairs",
        deviceType: "phone",
        internetQuality: "fair",
        videoPreference: "meet",
        residenceAddress: "Bonapriso, Douala",
      };
      const request = await insertOpenRequest(api.db, {
        patientId: alice.user.id,
        specialityId: ref.speciality("Cardiology").id,
        startsAt,
        details,
      });
      await insertAppointment(api.db, {
        patientId: bruno.user.id,
        doctorId: colleague.user.id,
        status: "confirmed",
        startsAt,
      });
      const find = async (token: string) =>
        (await list(token, "?category=random&limit=100")).body.appointments.find(
          (a: { id: string }) => a.id === request.id,
        );
      expect(await find(colleague.token)).toMatchObject({ slotHeld: true, details });
      expect(await find(cardiologist.token)).toMatchObject({ slotHeld: false, details });
      expect(
        (await api.request("GET", `/doctor/doctor_appointments/${request.id}`, { token: colleague.token })).body,
      ).toMatchObject({ slotHeld: true, details });
      await api.db.delete(appointments).where(eq(appointments.id, request.id));
    });

    it("shows every open request to a doctor without specialities, and none to an unverified doctor", async () => {
      expect(idsOf((await list(generalist.token, "?category=random")).body)).toEqual(
        [ids.openAlice, ids.openBruno, ids.openDerm].sort(),
      );
      const none = await list(unverified.token, "?category=random");
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ appointments: [], total: 0 });
    });

    it("searches the patient's name or the speciality, case-insensitively, and filters by status", async () => {
      expect(idsOf((await list(cardiologist.token, "?search=aLiCe")).body)).toEqual(
        [ids.alicePending, ids.aliceConfirmed].sort(),
      );
      expect((await list(cardiologist.token, "?search=CARDIO")).body.total).toBe(4);
      expect((await list(cardiologist.token, "?search=cardiologie")).body.total).toBe(4);
      expect((await list(cardiologist.token, "?search=nobody")).body.total).toBe(0);
      expect((await list(cardiologist.token, "?search=%25")).body.total).toBe(0);
      expect(idsOf((await list(cardiologist.token, "?status=pending")).body)).toEqual(
        [ids.alicePending, ids.brunoPending].sort(),
      );
      expect(idsOf((await list(cardiologist.token, "?category=random&search=bruno")).body)).toEqual([ids.openBruno]);
      expect(idsOf((await list(cardiologist.token, "?category=random&status=proposed")).body)).toEqual([ids.openBruno]);
    });

    it("pages: limit and page, totalPages, a capped limit, and 400 for nonsense", async () => {
      const second = await list(cardiologist.token, "?limit=3&page=2");
      expect(second.body).toMatchObject({ total: 4, page: 2, limit: 3, totalPages: 2 });
      expect(second.body.appointments.map((a: { id: string }) => a.id)).toEqual([ids.alicePending]);
      expect((await list(cardiologist.token, "?limit=500")).body.limit).toBe(100);
      expect((await list(cardiologist.token, "?page=0")).status).toBe(400);
      expect((await list(cardiologist.token, "?category=open")).status).toBe(400);
      expect((await list(cardiologist.token, "?status=done")).status).toBe(400);
    });

    it("records one audit event per patient read, as an appointment_list read", async () => {
      const reader = await api.createDoctor({ specialities: ["Neurology"] });
      await insertAppointment(api.db, { patientId: alice.user.id, doctorId: reader.user.id, startsAt: at(10) });
      await insertAppointment(api.db, { patientId: alice.user.id, doctorId: reader.user.id, startsAt: at(10) });
      await list(reader.token);
      await list(reader.token, "?category=random");
      const events = await api.db.select().from(auditEvents).where(eq(auditEvents.actorId, reader.user.id));
      expect(events).toMatchObject([{ subjectUserId: alice.user.id, action: "read", entity: "appointment_list" }]);
    });

    it("is for doctors only", async () => {
      expect((await list(alice.token)).status).toBe(403);
      expect((await list((await api.createAdmin()).token)).status).toBe(403);
      expect((await list("")).status).toBe(401);
    });
  });

  describe("GET /doctor/doctor_appointments/{id}", () => {
    const one = (id: string, token = cardiologist.token) =>
      api.request("GET", `/doctor/doctor_appointments/${id}`, { token, answer: doctorAppointment });

    it("opens an assigned appointment or an open request I may answer, audited", async () => {
      expect((await one(ids.brunoCancelled)).body).toMatchObject({ id: ids.brunoCancelled, status: "cancelled" });
      expect((await one(ids.openBruno)).body).toMatchObject({ id: ids.openBruno, myProposal: { id: ids.myProposal } });
      const events = await api.db.select().from(auditEvents).where(eq(auditEvents.entityId, ids.openBruno));
      expect(events).toMatchObject([
        { actorId: cardiologist.user.id, subjectUserId: bruno.user.id, action: "read", entity: "appointment" },
      ]);
    });

    it("answers 404 for another doctor's appointment, another speciality's request, closed requests and bad ids", async () => {
      for (const id of [
        ids.colleagues,
        ids.openDerm,
        ids.openCancelled,
        ids.answered,
        "00000000-0000-4000-8000-000000000000",
        "x",
      ]) {
        expect((await one(id)).status, id).toBe(404);
      }
      expect((await one(ids.openAlice, unverified.token)).status).toBe(404);
    });
  });

  describe("GET /doctor/notifications, /doctor/patients, /doctor/export", () => {
    it("counts the bell's unseen notices, mine only (api/notification holds what writes them)", async () => {
      await api.db.insert(notifications).values([
        {
          userId: cardiologist.user.id,
          appointmentId: ids.alicePending,
          kind: "appointment_booked",
          actorId: alice.user.id,
        },
        {
          userId: cardiologist.user.id,
          appointmentId: ids.brunoPending,
          kind: "appointment_booked",
          actorId: bruno.user.id,
        },
        { userId: cardiologist.user.id, appointmentId: ids.openAlice, kind: "open_request", actorId: alice.user.id },
        {
          userId: cardiologist.user.id,
          appointmentId: ids.aliceConfirmed,
          kind: "appointment_booked",
          actorId: alice.user.id,
          seenAt: new Date(),
        },
      ]);
      const res = await api.request("GET", "/doctor/notifications", { token: cardiologist.token });
      expect(res.body).toEqual({ count: 3 });
      expect((await api.request("GET", "/doctor/notifications", { token: unverified.token })).body).toEqual({
        count: 0,
      });
      expect((await api.request("GET", "/doctor/notifications", { token: alice.token })).status).toBe(403);
    });

    it("summarises a page's needs in one answer: the bell count and the verification state", async () => {
      expect((await api.request("GET", "/doctor/summary", { token: cardiologist.token })).body).toEqual({
        count: 3,
        verification: "verified",
        rejectionReason: null,
      });
      expect((await api.request("GET", "/doctor/summary", { token: unverified.token })).body).toEqual({
        count: 0,
        verification: "pending",
        rejectionReason: null,
      });
      expect((await api.request("GET", "/doctor/summary", { token: alice.token })).status).toBe(403);
      expect((await api.request("GET", "/doctor/summary")).status).toBe(401);
    });

    it("lists my distinct patients by name", async () => {
      const res = await api.request("GET", "/doctor/patients", { token: cardiologist.token });
      expect(res.body).toEqual([
        { id: alice.user.id, username: "Alice Ngono" },
        { id: bruno.user.id, username: "Bruno Eto" },
      ]);
      expect((await api.request("GET", "/doctor/patients", { token: generalist.token })).body).toEqual([]);
    });

    it("exports the profile, assigned appointments and consultations as a JSON download", async () => {
      await api.db.insert(consultations).values({
        doctorId: cardiologist.user.id,
        patientId: alice.user.id,
        type: "consultation",
        diagnosis: "Arrhythmia",
      });
      const res = await fetch(`${api.url}/doctor/export`, {
        headers: { authorization: `Bearer ${cardiologist.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toContain("attachment");
      const body = matches(doctorExport, await res.json());
      expect(body.profile).toMatchObject({ id: cardiologist.user.id, username: "Dr Heart" });
      expect(body.appointments).toHaveLength(4);
      expect(body.consultations).toMatchObject([{ patientName: "Alice Ngono", diagnosis: "Arrhythmia" }]);
    });
  });

  describe("GET /doctor/doctor-info and PUT /doctor/me", () => {
    it("answers the doctor profile with the verification status", async () => {
      const res = await api.request("GET", "/doctor/doctor-info", { token: cardiologist.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: cardiologist.user.id,
        username: "Dr Heart",
        email: cardiologist.user.email,
        contact: "+237 600 000 000",
        gender: null,
        serial_number: expect.stringMatching(/^MED-/),
        duty_hospital: "Hôpital Laquintinie",
        biography: null,
        startYear: 2015,
        countryId: ref.cameroon.id,
        Country: { id: ref.cameroon.id, name: "Cameroon", code: "CM" },
        City: { name: "Douala" },
        specialities: [{ id: ref.speciality("Cardiology").id, name: "Cardiology", nameFr: "Cardiologie" }],
        avatarUrl: null,
        createdAt: expect.any(String),
        verification: "verified",
      });
      expect(
        (await api.request("GET", "/doctor/doctor-info", { answer: doctorProfile, token: unverified.token })).body
          .verification,
      ).toBe("pending");
      expect((await api.request("GET", "/doctor/doctor-info", { token: alice.token })).status).toBe(403);
    });

    it("updates the profile, trimming text and clearing blanks; specialities stay as the admin set them", async () => {
      const yaounde = ref.city("Yaoundé");
      const res = await api.request("PUT", "/doctor/me", {
        token: generalist.token,
        body: {
          username: "  Dr Renamed ",
          gender: "female",
          serial_number: "ORD-12345",
          duty_hospital: "Hôpital Central",
          contact: "(+237) 699-00-11-22",
          biography: "",
          countryId: ref.cameroon.id,
          cityId: String(yaounde.id),
          specialityIds: [ref.speciality("Cardiology").id],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        username: "Dr Renamed",
        gender: "female",
        serial_number: "ORD-12345",
        duty_hospital: "Hôpital Central",
        contact: "+237699001122",
        biography: null,
        City: { id: yaounde.id, name: "Yaoundé" },
        specialities: [],
        updatedAt: expect.any(String),
      });
      const partial = await api.request("PUT", "/doctor/me", { token: generalist.token, body: { gender: "" } });
      expect(partial.body).toMatchObject({ gender: null, username: "Dr Renamed", serial_number: "ORD-12345" });
    });

    it.each([
      ["a 2-letter name", { username: "ab" }, "invalid_username"],
      ["a 2-character serial number", { serial_number: "x1" }, "invalid_serial_number"],
      ["an emptied serial number", { serial_number: "" }, "invalid_serial_number"],
      ["a contact with letters", { contact: "call me" }, "invalid_contact"],
      ["a 30-digit contact", { contact: "1".repeat(30) }, "invalid_contact"],
      ["a number too short for Cameroon", { contact: "+237 (6) 99-00-11" }, "invalid_contact"],
      ["the 10-digit national form", { contact: "0699001122" }, "invalid_contact"],
      ["a gender the form does not offer", { gender: "other" }, "invalid_gender"],
      ["a 2001-character biography", { biography: "b".repeat(2001) }, "invalid_biography"],
      ["a 201-character hospital", { duty_hospital: "h".repeat(201) }, "invalid_duty_hospital"],
      ["an unknown country", { countryId: 99999 }, "invalid_country"],
      ["a city that is not an id", { cityId: "abc" }, "invalid_city"],
    ])("refuses %s with 400", async (_label, body, code) => {
      const res = await api.request("PUT", "/doctor/me", { token: colleague.token, body });
      expect(res.status).toBe(400);
      expect(refusal(res).code).toBe(code);
    });

    it("refuses a city outside the chosen country, and drops a kept city when the country changes", async () => {
      const [nigeria] = await api.db.select().from(countries).where(eq(countries.code, "NG"));
      const unknown = await api.request("PUT", "/doctor/me", {
        token: colleague.token,
        body: { countryId: ref.cameroon.id, cityId: 99999 },
      });
      expect(refusal(unknown).code).toBe("invalid_city");
      const wrong = await api.request("PUT", "/doctor/me", {
        token: colleague.token,
        body: { countryId: nigeria.id, cityId: ref.city("Douala").id },
      });
      expect(wrong.status).toBe(400);
      expect(refusal(wrong).code).toBe("city_country_mismatch");
      const moved = await api.request("PUT", "/doctor/me", { token: colleague.token, body: { countryId: nigeria.id } });
      expect(moved.body).toMatchObject({ Country: { name: "Nigeria" }, City: null, cityId: null });
    });

    it("is for doctors only", async () => {
      expect(
        (await api.request("PUT", "/doctor/me", { token: alice.token, body: { username: "Hacker" } })).status,
      ).toBe(403);
    });
  });
});
