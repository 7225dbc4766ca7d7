import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refusal, setUpApi, type TestDoctor, type TestPatient } from "../test/harness.ts";
import { auditEvents } from "../db/schema.ts";
import { insertAppointment } from "../appointment/test-factories.ts";
import { consultation, consultationPage } from "../../contract/consultation.ts";

describe("consultation records: /consultation", () => {
  const api = setUpApi();
  let doctor: TestDoctor;
  let other: TestDoctor;
  let alice: TestPatient;
  let bruno: TestPatient;
  let stranger: TestPatient;
  let aliceVisit: string;

  beforeAll(async () => {
    doctor = await api.createDoctor({ username: "Dr Author" });
    other = await api.createDoctor({ username: "Dr Other" });
    alice = await api.createPatient({ username: "Alice Ngono" });
    bruno = await api.createPatient({ username: "Bruno Eto" });
    stranger = await api.createPatient({ username: "Someone Else" });
    aliceVisit = (
      await insertAppointment(api.db, {
        patientId: alice.user.id,
        doctorId: doctor.user.id,
        status: "completed",
        startsAt: new Date(Date.now() - 86_400_000),
      })
    ).id;
    await insertAppointment(api.db, { patientId: bruno.user.id, doctorId: doctor.user.id });
    await insertAppointment(api.db, { patientId: stranger.user.id, doctorId: other.user.id });
  });

  const create = (body: Record<string, unknown>, token = doctor.token) =>
    api.request("POST", "/consultation", { token, body, answer: consultation });
  const valid = (patientId = alice.user.id) => ({
    patientId,
    type: "consultation",
    diagnosis: "Seasonal flu",
    notes: "Rest and fluids",
    prescription: ["Paracetamol 500 mg", "  ", " Vitamin C "],
  });

  describe("POST /consultation", () => {
    it("writes a record about one of my patients and answers its full shape", async () => {
      const res = await create({ ...valid(), consultedAt: "2026-01-15T10:30:00+01:00", appointmentId: aliceVisit });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        patientId: alice.user.id,
        patientName: "Alice Ngono",
        patientAvatar: null,
        doctorId: doctor.user.id,
        doctorName: "Dr Author",
        appointmentId: aliceVisit,
        date: "2026-01-15",
        time: "10:30",
        consultedAt: "2026-01-15T09:30:00.000Z",
        type: "consultation",
        diagnosis: "Seasonal flu",
        notes: "Rest and fluids",
        prescription: ["Paracetamol 500 mg", "Vitamin C"],
        status: "completed",
        patientMissed: 0,
        createdAt: expect.any(String),
        updatedAt: null,
      });
      const audit = await api.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.body.id));
      expect(audit).toMatchObject([
        { actorId: doctor.user.id, subjectUserId: alice.user.id, action: "create", entity: "consultation" },
      ]);
    });

    it("defaults notes, prescription and the date (now)", async () => {
      const res = await create({ patientId: bruno.user.id, type: "follow-up", diagnosis: "Check" });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ notes: "", prescription: [], appointmentId: null });
      expect(Date.now() - Date.parse(res.body.consultedAt)).toBeLessThan(3_600_000);
    });

    it("refuses a patient who is not mine with 403 not_your_patient", async () => {
      const res = await create(valid(stranger.user.id));
      expect(res.status).toBe(403);
      expect(refusal(res).code).toBe("not_your_patient");
      expect((await create(valid(other.user.id))).status).toBe(403);
    });

    it.each([
      ["no patient", { patientId: undefined }, "invalid_patient"],
      ["no type", { type: undefined }, "invalid_type"],
      ["an unknown type", { type: "surgery" }, "invalid_type"],
      ["an empty diagnosis", { diagnosis: "   " }, "invalid_diagnosis"],
      ["a prescription that is not a list", { prescription: "Paracetamol" }, "invalid_prescription"],
      ["a future date", { consultedAt: new Date(Date.now() + 86_400_000).toISOString() }, "invalid_consultedAt"],
      ["a date without offset", { consultedAt: "2026-01-15T10:30:00" }, "invalid_consultedAt"],
    ])("refuses %s with 400", async (_label, change, code) => {
      const res = await create({ ...valid(), ...change });
      expect(res.status).toBe(400);
      expect(refusal(res).code).toBe(code);
      expect(refusal(res).message).toEqual(expect.any(String));
    });

    it("refuses an appointment of another patient or doctor with 400 invalid_appointment", async () => {
      expect(refusal(await create({ ...valid(bruno.user.id), appointmentId: aliceVisit })).code).toBe(
        "invalid_appointment",
      );
      expect(refusal(await create({ ...valid(), appointmentId: "00000000-0000-4000-8000-000000000000" })).code).toBe(
        "invalid_appointment",
      );
    });

    it("is for doctors only", async () => {
      expect((await create(valid(), alice.token)).status).toBe(403);
      expect((await create(valid(), (await api.createAdmin()).token)).status).toBe(403);
    });
  });

  describe("reading", () => {
    let recordId: string;
    beforeAll(async () => {
      recordId = (await create({ patientId: alice.user.id, type: "check-up", diagnosis: "Hypertension stage 1" })).body
        .id;
    });
    const read = (token: string, id = recordId) =>
      api.request("GET", `/consultation/${id}`, { token, answer: consultation });

    it("lets the author doctor and the patient concerned read a record", async () => {
      expect((await read(doctor.token)).body).toMatchObject({ id: recordId, diagnosis: "Hypertension stage 1" });
      expect((await read(alice.token)).body).toMatchObject({ id: recordId, doctorName: "Dr Author" });
    });

    it("answers 404 to another doctor or patient and for bad ids; admins have no access (403)", async () => {
      expect((await read(other.token)).status).toBe(404);
      expect((await read(bruno.token)).status).toBe(404);
      expect((await read((await api.createAdmin()).token)).status).toBe(403);
      expect((await read(doctor.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await read(doctor.token, "nope")).status).toBe(404);
    });

    it("lists the doctor's own records newest first, searching patient name or diagnosis case-insensitively", async () => {
      const all = await api.request("GET", "/consultation", { answer: consultationPage, token: doctor.token });
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ page: 1, limit: 20 });
      expect(all.body.total).toBeGreaterThanOrEqual(3);
      const dates = all.body.consultations.map((c: { consultedAt: string }) => c.consultedAt);
      expect([...dates].sort().reverse()).toEqual(dates);
      const byName = await api.request("GET", "/consultation?search=BRUNO", {
        answer: consultationPage,
        token: doctor.token,
      });
      expect(byName.body.consultations.every((c: { patientName: string }) => c.patientName === "Bruno Eto")).toBe(true);
      expect(byName.body.total).toBe(1);
      const byDiagnosis = await api.request("GET", "/consultation?search=hyperTENSION", {
        answer: consultationPage,
        token: doctor.token,
      });
      expect(byDiagnosis.body.consultations.map((c: { id: string }) => c.id)).toEqual([recordId]);
      const paged = await api.request("GET", "/consultation?limit=1&page=2", {
        answer: consultationPage,
        token: doctor.token,
      });
      expect(paged.body.consultations).toHaveLength(1);
      expect(paged.body.totalPages).toBe(all.body.total);
      expect(
        (await api.request("GET", "/consultation", { answer: consultationPage, token: other.token })).body.total,
      ).toBe(0);
    });

    it("tells with each record the patient's missed appointments of the last 12 months, with any doctor", async () => {
      const dina = await api.createPatient({ username: "Dina Missed" });
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
      await insertAppointment(api.db, {
        patientId: dina.user.id,
        doctorId: doctor.user.id,
        status: "missed",
        startsAt: daysAgo(3),
      });
      await insertAppointment(api.db, {
        patientId: dina.user.id,
        doctorId: other.user.id,
        status: "missed",
        startsAt: daysAgo(100),
      });
      await insertAppointment(api.db, {
        patientId: dina.user.id,
        doctorId: doctor.user.id,
        status: "missed",
        startsAt: daysAgo(370),
      });
      await insertAppointment(api.db, {
        patientId: dina.user.id,
        doctorId: doctor.user.id,
        status: "completed",
        startsAt: daysAgo(2),
      });
      const record = await create(valid(dina.user.id));
      expect(record.status).toBe(201);
      expect(record.body.patientMissed).toBe(2);
      expect((await read(doctor.token, record.body.id)).body.patientMissed).toBe(2);
      const listed = await api.request("GET", "/consultation?search=Dina", {
        answer: consultationPage,
        token: doctor.token,
      });
      expect(listed.body.consultations.map((c: { patientMissed: number }) => c.patientMissed)).toEqual([2]);
      expect((await read(doctor.token)).body.patientMissed).toBe(0);
    });

    it("lists to a patient only the records about them", async () => {
      const mine = await api.request("GET", "/consultation", { answer: consultationPage, token: alice.token });
      expect(mine.body.consultations.length).toBeGreaterThan(0);
      expect(mine.body.consultations.every((c: { patientId: string }) => c.patientId === alice.user.id)).toBe(true);
      expect(
        (await api.request("GET", "/consultation", { answer: consultationPage, token: stranger.token })).body.total,
      ).toBe(0);
    });
  });

  describe("PUT /consultation/{id}", () => {
    it("lets the author change a record, keeping what is left out", async () => {
      const created = (await create(valid())).body;
      const res = await api.request("PUT", `/consultation/${created.id}`, {
        token: doctor.token,
        body: { diagnosis: "Bronchitis", prescription: ["Amoxicillin"] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: created.id,
        diagnosis: "Bronchitis",
        prescription: ["Amoxicillin"],
        notes: "Rest and fluids",
        type: "consultation",
        updatedAt: expect.any(String),
      });
      // The web form sends every field back, patient included.
      const full = await api.request("PUT", `/consultation/${created.id}`, {
        token: doctor.token,
        body: { ...valid(bruno.user.id), type: "emergency" },
      });
      expect(full.body).toMatchObject({ patientId: bruno.user.id, patientName: "Bruno Eto", type: "emergency" });
    });

    it("answers 404 to another doctor, 403 to a patient, 400 for invalid fields and 403 for a patient who is not mine", async () => {
      const created = (await create(valid())).body;
      const put = (body: unknown, token = doctor.token) =>
        api.request("PUT", `/consultation/${created.id}`, { token, body });
      expect((await put({ diagnosis: "Changed" }, other.token)).status).toBe(404);
      expect((await put({ diagnosis: "Changed" }, alice.token)).status).toBe(403);
      expect(refusal(await put({ diagnosis: "" })).code).toBe("invalid_diagnosis");
      expect(refusal(await put({ patientId: stranger.user.id })).code).toBe("not_your_patient");
      expect(
        (await api.request("GET", `/consultation/${created.id}`, { token: doctor.token, answer: consultation })).body
          .diagnosis,
      ).toBe("Seasonal flu");
    });
  });
});
