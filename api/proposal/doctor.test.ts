import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refusal, setUpApi, type TestDoctor, type TestPatient, type TestReference } from "../test/harness.ts";
import { appointments, auditEvents, proposals } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "../appointment/test-factories.ts";
import { createdProposal } from "../../contract/appointment.ts";

describe("the doctor's POST /appointment-proposal", () => {
  const api = setUpApi();
  let ref: TestReference;
  let patient: TestPatient;
  let cardiologist: TestDoctor;
  let second: TestDoctor;
  let dermatologist: TestDoctor;
  let generalist: TestDoctor;
  let unverified: TestDoctor;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient();
    cardiologist = await api.createDoctor({ specialities: ["Cardiology"] });
    second = await api.createDoctor({ specialities: ["Cardiology", "Neurology"] });
    dermatologist = await api.createDoctor({ specialities: ["Dermatology"] });
    generalist = await api.createDoctor({ specialities: [] });
    unverified = await api.createDoctor({ verification: "pending", specialities: ["Cardiology"] });
  });

  const openRequest = (speciality = "Cardiology") =>
    insertOpenRequest(api.db, { patientId: patient.user.id, specialityId: ref.speciality(speciality).id });
  const propose = (appointmentId: string, doctor = cardiologist, doctorId: string = doctor.user.id) =>
    api.request("POST", "/appointment-proposal", {
      answer: createdProposal,
      token: doctor.token,
      body: { doctorId, appointmentId },
    });
  const request = async (id: string) => (await api.db.select().from(appointments).where(eq(appointments.id, id)))[0];

  it("creates a pending proposal and turns the request into 'proposed'", async () => {
    const r = await openRequest();
    const res = await propose(r.id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      status: "pending",
      createdAt: expect.any(String),
      appointmentId: r.id,
      doctorId: cardiologist.user.id,
    });
    expect((await request(r.id)).status).toBe("proposed");
    const audit = await api.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.body.id));
    expect(audit).toMatchObject([
      { actorId: cardiologist.user.id, subjectUserId: patient.user.id, action: "create", entity: "proposal" },
    ]);
  });

  it("refuses a proposal on a slot the doctor already holds (409 slot_held), not on one they freed", async () => {
    const r = await openRequest();
    const held = await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: second.user.id,
      status: "pending",
      startsAt: r.startsAt,
    });
    const res = await propose(r.id, second);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "You already have an appointment at this time", code: "slot_held" });
    expect(await api.db.select().from(proposals).where(eq(proposals.appointmentId, r.id))).toHaveLength(0);
    expect((await request(r.id)).status).toBe("pending");
    await api.db.update(appointments).set({ status: "confirmed" }).where(eq(appointments.id, held.id));
    expect(refusal(await propose(r.id, second)).code).toBe("slot_held");
    await api.db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, held.id));
    expect((await propose(r.id, second)).status).toBe(201);
  });

  it("lets several doctors propose on the same request, each once (409 already_proposed)", async () => {
    const r = await openRequest();
    expect((await propose(r.id)).status).toBe(201);
    expect((await propose(r.id, second)).status).toBe(201);
    const again = await propose(r.id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "You have already proposed for this request", code: "already_proposed" });
    expect(await api.db.select().from(proposals).where(eq(proposals.appointmentId, r.id))).toHaveLength(2);
  });

  it("counts a rejected proposal too: a doctor proposes once per request", async () => {
    const r = await openRequest();
    await insertProposal(api.db, r.id, cardiologist.user.id, "rejected");
    expect(refusal(await propose(r.id)).code).toBe("already_proposed");
  });

  it("lets a doctor without specialities answer any request", async () => {
    const r = await openRequest("Ophthalmology");
    expect((await propose(r.id, generalist)).status).toBe(201);
  });

  it("answers 404 to a doctor of another speciality, and for unknown ids and direct appointments", async () => {
    const r = await openRequest("Cardiology");
    expect((await propose(r.id, dermatologist)).status).toBe(404);
    expect((await propose("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await propose("nope")).status).toBe(404);
    const direct = await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: second.user.id,
      specialityId: ref.speciality("Cardiology").id,
    });
    expect((await propose(direct.id)).status).toBe(404);
    expect((await request(r.id)).status).toBe("pending");
  });

  it("refuses a request that no longer takes proposals (409) or whose time has passed", async () => {
    for (const status of ["cancelled", "confirmed", "completed"] as const) {
      const r = await insertOpenRequest(api.db, {
        patientId: patient.user.id,
        specialityId: ref.speciality("Cardiology").id,
        status,
      });
      const res = await propose(r.id);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("invalid_transition");
    }
    const past = await insertOpenRequest(api.db, {
      patientId: patient.user.id,
      specialityId: ref.speciality("Cardiology").id,
      startsAt: new Date(Date.now() - 86_400_000),
    });
    const res = await propose(past.id);
    expect(res.status).toBe(409);
    expect(refusal(res).code).toBe("request_expired");
  });

  it("refuses an unverified doctor with 403 doctor_unverified", async () => {
    const r = await openRequest();
    const res = await propose(r.id, unverified);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Your account is awaiting verification", code: "doctor_unverified" });
    expect((await request(r.id)).status).toBe("pending");
  });

  it("refuses to propose in another doctor's name (403), and refuses patients (403)", async () => {
    const r = await openRequest();
    const spoofed = await propose(r.id, cardiologist, second.user.id);
    expect(spoofed.status).toBe(403);
    expect(await api.db.select().from(proposals).where(eq(proposals.appointmentId, r.id))).toHaveLength(0);
    const byPatient = await api.request("POST", "/appointment-proposal", {
      token: patient.token,
      body: { doctorId: cardiologist.user.id, appointmentId: r.id },
    });
    expect(byPatient.status).toBe(403);
  });

  it("needs an appointment (400)", async () => {
    const res = await api.request("POST", "/appointment-proposal", {
      token: cardiologist.token,
      body: { doctorId: cardiologist.user.id },
    });
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe("appointment_required");
  });

  it("gives exactly one proposal when the same doctor proposes twice at once", async () => {
    const r = await openRequest();
    const answers = await Promise.all([propose(r.id), propose(r.id), propose(r.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  });

  it("replays a retried submission with the same idempotency key", async () => {
    const r = await openRequest();
    const headers = { "idempotency-key": `propose-${r.id}` };
    const body = { doctorId: cardiologist.user.id, appointmentId: r.id };
    const first = await api.request("POST", "/appointment-proposal", {
      answer: createdProposal,
      token: cardiologist.token,
      body,
      headers,
    });
    const again = await api.request("POST", "/appointment-proposal", {
      answer: createdProposal,
      token: cardiologist.token,
      body,
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });
});
