import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  UNBOUND_BOOKINGS,
  refusal,
  setUpApi,
  type TestDoctor,
  type TestPatient,
  type TestReference,
} from "../test/harness.ts";
import { matches } from "../test/contract-match.ts";
import { appointments, proposals, users } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "../appointment/test-factories.ts";
import { createdProposal, proposalList } from "../../contract/appointment.ts";
import { unseenNotifications } from "../../contract/patient.ts";
import { clinicParts } from "../time.ts";

describe("the patient's proposals: GET /appointment-proposal, accept, reject", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });
  let ref: TestReference;
  let patient: TestPatient;
  let other: TestPatient;
  let gp: TestDoctor;
  let cardiologist: TestDoctor;
  let third: TestDoctor;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient();
    other = await api.createPatient();
    gp = await api.createDoctor({
      username: "Dr Generalist",
      specialities: ["General practice", "Cardiology"],
      startYear: 2010,
    });
    cardiologist = await api.createDoctor({ username: "Dr Cardio", specialities: ["Cardiology"], city: "Garoua" });
    third = await api.createDoctor({ username: "Dr Third", specialities: ["Cardiology"] });
  });

  const openRequest = (patientId = patient.user.id) =>
    insertOpenRequest(api.db, { patientId, specialityId: ref.speciality("Cardiology").id });
  const statusOf = async (id: string) => (await api.db.select().from(appointments).where(eq(appointments.id, id)))[0];
  const proposalStatuses = async (appointmentId: string) =>
    Object.fromEntries(
      (await api.db.select().from(proposals).where(eq(proposals.appointmentId, appointmentId))).map((p) => [
        p.doctorId,
        p.status,
      ]),
    );
  const accept = (id: string, token = patient.token, headers?: Record<string, string>) =>
    api.request("PATCH", `/appointment-proposal/${id}/accept`, { token, headers });
  const reject = (id: string, token = patient.token) =>
    api.request("PATCH", `/appointment-proposal/${id}/reject`, { token });

  describe("GET /appointment-proposal", () => {
    it("lists the proposals on an own request as an array, oldest first, with the doctor card and the fee", async () => {
      const request = await openRequest();
      await insertProposal(api.db, request.id, cardiologist.user.id);
      await insertProposal(api.db, request.id, gp.user.id);
      const res = await api.request("GET", `/appointment-proposal?appointmentId=${request.id}`, {
        answer: proposalList,
        token: patient.token,
      });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(2);
      expect(res.body[0]).toMatchObject({
        status: "pending",
        createdAt: expect.any(String),
        Doctor: {
          id: cardiologist.user.id,
          username: "Dr Cardio",
          avatarUrl: null,
          specialities: [{ name: "Cardiology", isGeneral: false }],
          City: { name: "Garoua" },
          duty_hospital: "Hôpital Laquintinie",
          startYear: 2015,
          fee: 6000,
        },
        Appointment: { id: request.id, price: 6000 },
      });
      expect(res.body[1]).toMatchObject({
        Doctor: { id: gp.user.id, fee: 3000, startYear: 2010 },
        Appointment: { price: 3000 },
      });
    });

    it("pages 10 at a time and sends the total in X-Total-Count", async () => {
      const request = await openRequest();
      for (let i = 0; i < 12; i++) {
        await insertProposal(api.db, request.id, (await api.createDoctor({ username: `Dr P${i}` })).user.id);
      }
      const res = await fetch(`${api.url}/appointment-proposal?appointmentId=${request.id}&page=2`, {
        headers: { authorization: `Bearer ${patient.token}` },
      });
      expect(res.headers.get("x-total-count")).toBe("12");
      expect(matches(proposalList, await res.json())).toHaveLength(2);
      const first = await api.request("GET", `/appointment-proposal?appointmentId=${request.id}`, {
        answer: proposalList,
        token: patient.token,
      });
      expect(first.body).toHaveLength(10);
    });

    it("answers 404 for another patient's request, 400 without a request, 403 for other roles", async () => {
      const theirs = await openRequest(other.user.id);
      await insertProposal(api.db, theirs.id, gp.user.id);
      expect(
        (await api.request("GET", `/appointment-proposal?appointmentId=${theirs.id}`, { token: patient.token })).status,
      ).toBe(404);
      expect(
        (await api.request("GET", "/appointment-proposal?appointmentId=bad", { token: patient.token })).status,
      ).toBe(404);
      const missing = await api.request("GET", "/appointment-proposal", { token: patient.token });
      expect(missing.status).toBe(400);
      expect(refusal(missing).code).toBe("appointment_required");
      expect(
        (await api.request("GET", `/appointment-proposal?appointmentId=${theirs.id}`, { token: gp.token })).status,
      ).toBe(403);
      expect(
        (
          await api.request("GET", `/appointment-proposal?appointmentId=${theirs.id}`, {
            token: (await api.createAdmin()).token,
          })
        ).status,
      ).toBe(403);
    });
  });

  describe("PATCH /appointment-proposal/{id}/accept", () => {
    it("gives the request the doctor, the doctor's fee and status confirmed, and rejects the others", async () => {
      const request = await openRequest();
      const chosen = await insertProposal(api.db, request.id, cardiologist.user.id);
      await insertProposal(api.db, request.id, gp.user.id);
      await insertProposal(api.db, request.id, third.user.id);
      const res = await accept(chosen.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: "Proposal accepted",
        appointment: {
          id: request.id,
          status: "confirmed",
          doctorId: cardiologist.user.id,
          price: 6000,
          category: "random",
          Doctor: { username: "Dr Cardio" },
        },
      });
      expect(await proposalStatuses(request.id)).toEqual({
        [cardiologist.user.id]: "accepted",
        [gp.user.id]: "rejected",
        [third.user.id]: "rejected",
      });
      // Now an assigned appointment: the patient's tabs move it, and the list shows the fixed price.
      const listed = await api.request("GET", `/appointment-proposal?appointmentId=${request.id}`, {
        answer: proposalList,
        token: patient.token,
      });
      expect(listed.body.find((p) => p.status === "accepted")!.Appointment.price).toBe(6000);
    });

    it("refuses a proposal that is no longer pending, or a request no longer open (409)", async () => {
      const request = await openRequest();
      const first = await insertProposal(api.db, request.id, gp.user.id);
      const second = await insertProposal(api.db, request.id, third.user.id);
      expect((await accept(first.id)).status).toBe(200);
      const again = await accept(second.id);
      expect(again.status).toBe(409);
      expect(refusal(again).code).toBe("invalid_transition");
      expect((await accept(first.id)).status).toBe(409);

      const cancelled = await openRequest();
      const late = await insertProposal(api.db, cancelled.id, gp.user.id);
      await api.db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, cancelled.id));
      expect(refusal(await accept(late.id)).code).toBe("invalid_transition");
    });

    it("keeps everything unchanged when the doctor is already booked at that instant (409 slot_taken)", async () => {
      const request = await openRequest();
      const proposal = await insertProposal(api.db, request.id, third.user.id);
      await insertProposal(api.db, request.id, gp.user.id);
      // The doctor proposed while free, then got booked at the same instant.
      await insertAppointment(api.db, {
        patientId: other.user.id,
        doctorId: third.user.id,
        status: "confirmed",
        startsAt: request.startsAt,
      });
      const res = await accept(proposal.id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: "This doctor is no longer free at this time", code: "slot_taken" });
      expect(await statusOf(request.id)).toMatchObject({ status: "proposed", doctorId: null, price: null });
      expect(await proposalStatuses(request.id)).toEqual({ [third.user.id]: "pending", [gp.user.id]: "pending" });
      // The other doctor is still free: accepting them works.
      const list = await api.request("GET", `/appointment-proposal?appointmentId=${request.id}`, {
        answer: proposalList,
        token: patient.token,
      });
      const free = list.body.find((p) => p.Doctor.id === gp.user.id)!;
      expect((await accept(free.id)).status).toBe(200);
    });

    it("lists a proposal whose doctor has since taken that slot or is away as unavailable, and available again once it is freed", async () => {
      const request = await openRequest();
      await insertProposal(api.db, request.id, third.user.id);
      await insertProposal(api.db, request.id, cardiologist.user.id);
      const availability = async () =>
        Object.fromEntries(
          (
            await api.request("GET", `/appointment-proposal?appointmentId=${request.id}`, {
              answer: proposalList,
              token: patient.token,
            })
          ).body.map((p: { Doctor: { id: string }; available: boolean }) => [p.Doctor.id, p.available]),
        );
      expect(await availability()).toEqual({ [third.user.id]: true, [cardiologist.user.id]: true });
      const booked = await insertAppointment(api.db, {
        patientId: other.user.id,
        doctorId: third.user.id,
        status: "pending",
        startsAt: request.startsAt,
      });
      expect(await availability()).toEqual({ [third.user.id]: false, [cardiologist.user.id]: true });
      await api.db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, booked.id));
      expect(await availability()).toEqual({ [third.user.id]: true, [cardiologist.user.id]: true });
      // A doctor away that day: the same rule as the acceptance's (docs/product.md, Availability).
      const traveller = await api.createDoctor({ username: "Dr Away", specialities: ["Cardiology"] });
      await insertProposal(api.db, request.id, traveller.user.id);
      const day = clinicParts(request.startsAt).date;
      const away = await api.request("POST", "/doctor/absences", {
        token: traveller.token,
        body: { from: day, to: day },
      });
      expect(away.status).toBe(201);
      expect(await availability()).toEqual({
        [third.user.id]: true,
        [cardiologist.user.id]: true,
        [traveller.user.id]: false,
      });
    });

    it("refuses a doctor who can no longer practise (deleted or unverified)", async () => {
      const request = await openRequest();
      const gone = await api.createDoctor({ username: "Dr Gone" });
      const proposal = await insertProposal(api.db, request.id, gone.user.id);
      await api.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.user.id));
      const res = await accept(proposal.id);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("doctor_unavailable");
    });

    it("answers a replayed accept with the same answer", async () => {
      const request = await openRequest();
      const proposal = await insertProposal(api.db, request.id, gp.user.id);
      const headers = { "idempotency-key": "accept-once-0001" };
      const first = await accept(proposal.id, patient.token, headers);
      const replay = await accept(proposal.id, patient.token, headers);
      expect(first.status).toBe(200);
      expect(replay).toEqual(first);
    });

    it("answers 404 for another patient's proposal and 403 for doctors and admins", async () => {
      const theirs = await openRequest(other.user.id);
      const proposal = await insertProposal(api.db, theirs.id, gp.user.id);
      expect((await accept(proposal.id)).status).toBe(404);
      expect((await reject(proposal.id)).status).toBe(404);
      expect((await accept("00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await accept("nope")).status).toBe(404);
      expect((await accept(proposal.id, gp.token)).status).toBe(403);
      expect((await reject(proposal.id, gp.token)).status).toBe(403);
      expect((await accept(proposal.id, (await api.createAdmin()).token)).status).toBe(403);
      expect((await api.request("PATCH", `/appointment-proposal/${proposal.id}/accept`)).status).toBe(401);
      expect(await proposalStatuses(theirs.id)).toEqual({ [gp.user.id]: "pending" });
    });
  });

  describe("PATCH /appointment-proposal/{id}/reject", () => {
    it("rejects a proposal; the request stays proposed while another is pending, then returns to pending", async () => {
      const request = await openRequest();
      const a = await insertProposal(api.db, request.id, gp.user.id);
      const b = await insertProposal(api.db, request.id, third.user.id);
      const res = await reject(a.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "Proposal rejected" });
      expect((await statusOf(request.id)).status).toBe("proposed");
      await reject(b.id);
      expect(await statusOf(request.id)).toMatchObject({ status: "pending", doctorId: null });
      expect(await proposalStatuses(request.id)).toEqual({ [gp.user.id]: "rejected", [third.user.id]: "rejected" });
      const again = await reject(a.id);
      expect(again.status).toBe(409);
      expect(refusal(again).code).toBe("invalid_transition");
    });
  });

  it("rings the bell for each doctor's proposal, and answering one is seeing it", async () => {
    const fresh = await api.createPatient();
    const count = async () =>
      (await api.request("GET", "/patient/notifications", { answer: unseenNotifications, token: fresh.token })).body
        .count;
    expect(await count()).toBe(0);
    const request = await openRequest(fresh.user.id);
    const propose = (token: string) =>
      api.request("POST", "/appointment-proposal", {
        answer: createdProposal,
        token,
        body: { appointmentId: request.id },
      });
    const a = await propose(gp.token);
    expect(a.status).toBe(201);
    expect((await propose(third.token)).status).toBe(201);
    expect(await count()).toBe(2);
    await reject(a.body.id, fresh.token);
    expect(await count()).toBe(0);
    expect((await api.request("GET", "/patient/notifications", { token: gp.token })).status).toBe(403);
  });
});
