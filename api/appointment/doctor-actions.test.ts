import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import {
  futureDate,
  refusal,
  setUpApi,
  type TestDoctor,
  type TestPatient,
  type TestReference,
} from "../test/harness.ts";
import { appointments, auditEvents } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest } from "./test-factories.ts";
import { zonedInstant } from "../time.ts";
import {
  appointment,
  doctorAppointment,
  doctorAppointmentPage,
  patientAppointment,
} from "../../contract/appointment.ts";
import type { AppointmentStatus } from "../../contract/constants.ts";

type Status = AppointmentStatus;

describe("the doctor's PUT /appointment/{id}: the state table and rescheduling", () => {
  const api = setUpApi();
  let ref: TestReference;
  let patient: TestPatient;
  let doctor: TestDoctor;
  let other: TestDoctor;
  let pendingDoctor: TestDoctor;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient({ username: "Awa Patient" });
    doctor = await api.createDoctor({ username: "Dr Assigned" });
    other = await api.createDoctor({ username: "Dr Other" });
    pendingDoctor = await api.createDoctor({ verification: "pending" });
  });

  // Each row its own visit (an hour, off the slots), so neither the one-per-slot index nor the
  // no-overlap constraint collides by accident.
  let visits = 0;
  const VISIT_APART = 61 * 60_000;
  const ahead = () => new Date(Date.parse(`${futureDate(200)}T06:00:00Z`) + ++visits * VISIT_APART);
  const hourAgo = () => new Date(Date.now() - 3_600_000 - ++visits * VISIT_APART);
  const assigned = (status: Status, values: Partial<typeof appointments.$inferInsert> = {}) =>
    insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status,
      startsAt: ahead(),
      ...values,
    });
  const put = (id: string, body: unknown, token = doctor.token, headers?: Record<string, string>) =>
    api.request("PUT", `/appointment/${id}`, { answer: appointment, body, token, headers });
  const statusOf = async (id: string) =>
    (await api.db.select().from(appointments).where(eq(appointments.id, id)))[0].status;

  describe("allowed transitions", () => {
    it("confirms a pending appointment and answers the serialized appointment", async () => {
      const a = await assigned("pending");
      const res = await put(a.id, { status: "confirmed" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: a.id,
        status: "confirmed",
        doctorId: doctor.user.id,
        Patient: { username: "Awa Patient" },
      });
      expect(await statusOf(a.id)).toBe("confirmed");
    });

    it("cancels a pending appointment", async () => {
      const a = await assigned("pending");
      const res = await put(a.id, { status: "cancelled" });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("cancelled");
    });

    it("completes a confirmed appointment whose start has passed", async () => {
      const a = await assigned("confirmed", { startsAt: hourAgo() });
      const res = await put(a.id, { status: "completed" });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("completed");
    });

    it("records the change in the audit log", async () => {
      const a = await assigned("pending");
      await put(a.id, { status: "confirmed" });
      const events = await api.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, a.id), eq(auditEvents.action, "update")));
      expect(events).toMatchObject([
        { actorId: doctor.user.id, subjectUserId: patient.user.id, entity: "appointment" },
      ]);
    });
  });

  describe("refused transitions (409 invalid_transition)", () => {
    const refused: [Status, Status][] = [
      ["pending", "completed"],
      ["pending", "pending"],
      ["pending", "proposed"],
      ["confirmed", "confirmed"],
      ["confirmed", "cancelled"], // the patient's
      ["confirmed", "pending"],
      ["pending", "missed"],
      ["proposed", "missed"],
      ["proposed", "confirmed"], // only by accepting a proposal
    ];
    it.each(refused)("%s -> %s", async (from, to) => {
      const a = await assigned(from, { startsAt: hourAgo() });
      const res = await put(a.id, { status: to });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("invalid_transition");
      expect(await statusOf(a.id)).toBe(from);
    });

    // A final status changes no more, whatever is asked (409 already_final).
    const fromFinal: [Status, Status][] = [
      ["completed", "confirmed"],
      ["completed", "cancelled"],
      ["completed", "completed"],
      ["completed", "missed"],
      ["cancelled", "confirmed"],
      ["cancelled", "pending"],
      ["cancelled", "completed"],
      ["cancelled", "missed"],
      ["missed", "missed"],
      ["missed", "completed"],
      ["missed", "confirmed"],
      ["missed", "cancelled"],
      ["missed", "pending"],
    ];
    it.each(fromFinal)("%s -> %s (already_final)", async (from, to) => {
      const a = await assigned(from, { startsAt: hourAgo() });
      const res = await put(a.id, { status: to });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("already_final");
      expect(await statusOf(a.id)).toBe(from);
    });

    it("refuses to complete a confirmed appointment that has not started (409 not_started)", async () => {
      const a = await assigned("confirmed");
      const res = await put(a.id, { status: "completed" });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("not_started");
      expect(await statusOf(a.id)).toBe("confirmed");
    });

    it("refuses to cancel a pending appointment whose start has passed (409 already_started)", async () => {
      const a = await assigned("pending", { startsAt: hourAgo() });
      const res = await put(a.id, { status: "cancelled" });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("already_started");
      expect(await statusOf(a.id)).toBe("pending");
    });

    it("refuses an unknown status with 400", async () => {
      const a = await assigned("pending");
      const res = await put(a.id, { status: "done" });
      expect(res.status).toBe(400);
      expect(refusal(res).code).toBe("invalid_status");
    });
  });

  describe("who may act", () => {
    it("answers 404 for another doctor's appointment, and changes nothing", async () => {
      const a = await assigned("pending");
      const res = await put(a.id, { status: "confirmed" }, other.token);
      expect(res.status).toBe(404);
      expect(await statusOf(a.id)).toBe("pending");
    });

    it("answers 404 for an open request (no doctor yet) and for unknown or malformed ids", async () => {
      const open = await insertOpenRequest(api.db, {
        patientId: patient.user.id,
        specialityId: ref.speciality("General practice").id,
      });
      expect((await put(open.id, { status: "confirmed" })).status).toBe(404);
      expect((await put("00000000-0000-4000-8000-000000000000", { status: "confirmed" })).status).toBe(404);
      expect((await put("not-an-id", { status: "confirmed" })).status).toBe(404);
    });

    it("refuses patients and admins with 403", async () => {
      const a = await assigned("pending");
      expect((await put(a.id, { status: "confirmed" }, patient.token)).status).toBe(403);
      expect((await put(a.id, { status: "confirmed" }, (await api.createAdmin()).token)).status).toBe(403);
      expect((await put(a.id, { status: "confirmed" }, "")).status).toBe(401);
    });

    it("refuses an unverified doctor with 403 doctor_unverified", async () => {
      const a = await insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: pendingDoctor.user.id,
        status: "pending",
      });
      const res = await put(a.id, { status: "confirmed" }, pendingDoctor.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Your account is awaiting verification", code: "doctor_unverified" });
      const moved = await put(a.id, { date: futureDate(12), time: "10:00" }, pendingDoctor.token);
      expect(moved.status).toBe(403);
      expect(refusal(moved).code).toBe("doctor_unverified");
    });

    it("replays a retried confirmation with the same idempotency key instead of answering 409", async () => {
      const a = await assigned("pending");
      const headers = { "idempotency-key": `confirm-${a.id}` };
      const first = await put(a.id, { status: "confirmed" }, doctor.token, headers);
      const again = await put(a.id, { status: "confirmed" }, doctor.token, headers);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    });
  });

  describe("no-shows: a confirmed appointment whose start has passed becomes missed", () => {
    const getAsDoctor = (id: string, token = doctor.token) =>
      api.request("GET", `/appointment/${id}`, { answer: doctorAppointment, token });

    it("marks it missed, tells nobody, and the patient sees the status", async () => {
      const a = await assigned("confirmed", { startsAt: hourAgo() });
      const res = await put(a.id, { status: "missed" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: a.id, status: "missed" });
      expect(await statusOf(a.id)).toBe("missed");
      const events = await api.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, a.id), eq(auditEvents.action, "update")));
      expect(events).toMatchObject([{ actorId: doctor.user.id, subjectUserId: patient.user.id }]);
      const asPatient = await api.request("GET", `/appointment/${a.id}`, {
        answer: patientAppointment,
        token: patient.token,
      });
      expect(asPatient.body.status).toBe("missed");
      const patientList = await api.request("GET", "/appointment?status=missed", { token: patient.token });
      expect(patientList.status).toBe(200);
      expect((patientList.body as { appointments: { id: string }[] }).appointments.map((x) => x.id)).toContain(a.id);
    });

    it("refuses one that has not started yet (409 not_started)", async () => {
      const a = await assigned("confirmed");
      const res = await put(a.id, { status: "missed" });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("not_started");
      expect(await statusOf(a.id)).toBe("confirmed");
    });

    it("refuses a second mark (409 already_final), and replays a retry with the same idempotency key", async () => {
      const a = await assigned("confirmed", { startsAt: hourAgo() });
      const headers = { "idempotency-key": `missed-${a.id}` };
      const first = await put(a.id, { status: "missed" }, doctor.token, headers);
      const retried = await put(a.id, { status: "missed" }, doctor.token, headers);
      expect(first.status).toBe(200);
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual(first.body);
      const again = await put(a.id, { status: "missed" });
      expect(again.status).toBe(409);
      expect(refusal(again).code).toBe("already_final");
    });

    it("refuses another doctor and unknown ids with 404, a patient and an admin with 403", async () => {
      const a = await assigned("confirmed", { startsAt: hourAgo() });
      expect((await put(a.id, { status: "missed" }, other.token)).status).toBe(404);
      expect((await put("00000000-0000-4000-8000-000000000000", { status: "missed" })).status).toBe(404);
      expect((await put("not-an-id", { status: "missed" })).status).toBe(404);
      expect((await put(a.id, { status: "missed" }, patient.token)).status).toBe(403);
      expect((await put(a.id, { status: "missed" }, (await api.createAdmin()).token)).status).toBe(403);
      expect(await statusOf(a.id)).toBe("confirmed");
    });

    it("is not the patient's to undo: a missed appointment cannot be cancelled", async () => {
      const a = await assigned("missed", { startsAt: hourAgo() });
      const res = await api.request("PATCH", `/appointment/${a.id}`, {
        body: { status: "cancelled" },
        token: patient.token,
      });
      expect(res.status).toBe(409);
      expect(await statusOf(a.id)).toBe("missed");
    });

    it("counts the patient's missed appointments of the last 12 months, with any doctor, on the doctor's cards", async () => {
      const counted = await api.createPatient({ username: "Counted Patient" });
      const mine = (status: Status, startsAt: Date, doctorId = doctor.user.id) =>
        insertAppointment(api.db, { patientId: counted.user.id, doctorId, status, startsAt });
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000 - ++visits * VISIT_APART);
      const looked = await mine("confirmed", hourAgo());
      expect((await getAsDoctor(looked.id)).body.patientMissed).toBe(0);
      await put(looked.id, { status: "missed" });
      await mine("missed", daysAgo(30), other.user.id); // another doctor's no-show counts too
      await mine("missed", daysAgo(400)); // older than 12 months: not counted
      await mine("cancelled", daysAgo(10)); // not a no-show
      await insertAppointment(api.db, {
        patientId: patient.user.id,
        doctorId: doctor.user.id,
        status: "missed",
        startsAt: daysAgo(5),
      }); // another patient's
      const one = await getAsDoctor(looked.id);
      expect(one.status).toBe(200);
      expect(one.body.patientMissed).toBe(2);
      const list = await api.request("GET", "/doctor/doctor_appointments?status=missed", { token: doctor.token });
      const cards = (list.body as { appointments: { id: string; patientMissed: number }[] }).appointments;
      expect(cards.find((c) => c.id === looked.id)?.patientMissed).toBe(2);
      expect(cards.every((c) => c.patientMissed >= 1)).toBe(true);
    });
  });

  describe("no-shows of a stranger's patient", () => {
    const getAsDoctor = (id: string) =>
      api.request("GET", `/appointment/${id}`, { answer: doctorAppointment, token: doctor.token });

    it("are not told on an open request, only once the patient's appointment is the doctor's", async () => {
      const stranger = await api.createPatient({ username: "Stranger Patient" });
      await insertAppointment(api.db, {
        patientId: stranger.user.id,
        doctorId: other.user.id,
        status: "missed",
        startsAt: hourAgo(),
      });
      const request = await insertOpenRequest(api.db, {
        patientId: stranger.user.id,
        specialityId: ref.speciality("General practice").id,
      });
      const one = await getAsDoctor(request.id);
      expect(one.status).toBe(200);
      expect(one.body.patientMissed).toBeNull();
      const list = await api.request("GET", "/doctor/doctor_appointments?category=random&limit=50", {
        answer: doctorAppointmentPage,
        token: doctor.token,
      });
      const card = list.body.appointments.find((c) => c.id === request.id);
      expect(card?.patientMissed).toBeNull();
      const theirs = await assigned("confirmed", { patientId: stranger.user.id });
      expect((await getAsDoctor(theirs.id)).body.patientMissed).toBe(1);
    });
  });

  describe("rescheduling with {date, time}", () => {
    let day = 30;
    /** An appointment on a real slot, on a day of its own. */
    const onSlot = async (status: Status = "pending", time = "09:00") => {
      const date = futureDate(++day);
      const a = await assigned(status, { startsAt: zonedInstant(date, time) });
      return { ...a, date };
    };

    it("moves a pending or confirmed appointment to a free slot, keeping its status", async () => {
      for (const status of ["pending", "confirmed"] as const) {
        const a = await onSlot(status);
        const res = await put(a.id, { date: a.date, time: "14:00" });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status, date: a.date, time: `${a.date}T14:00:00+01:00` });
      }
    });

    it("accepts an ISO time with any offset that names a slot", async () => {
      const a = await onSlot();
      const res = await put(a.id, { date: a.date, time: `${a.date}T09:00:00Z` });
      expect(res.status).toBe(200);
      expect(res.body.time).toBe(`${a.date}T10:00:00+01:00`);
    });

    it("refuses the current slot with 400 unchanged", async () => {
      const a = await onSlot();
      const res = await put(a.id, { date: a.date, time: "09:00" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: "The new date and time must differ from the current ones",
        code: "unchanged",
      });
    });

    it("refuses a past date, a time that is not a slot, an impossible date and a missing time with 400", async () => {
      const a = await onSlot();
      const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      expect(refusal(await put(a.id, { date: yesterday, time: "09:00" })).code).toBe("past_date");
      // Off the plans' 5-minute grid (12:00 is on it: whether it is offered is the rule's 409).
      expect(refusal(await put(a.id, { date: a.date, time: "12:07" })).code).toBe("invalid_slot");
      expect(refusal(await put(a.id, { date: "2031-02-31", time: "09:00" })).code).toBe("invalid_date");
      const missing = await put(a.id, { date: a.date });
      expect(missing.status).toBe(400);
      expect(refusal(missing).code).toBe("invalid_slot");
    });

    it("refuses a slot the doctor already holds with 409 slot_taken", async () => {
      const a = await onSlot("pending", "09:00");
      await assigned("confirmed", { startsAt: zonedInstant(a.date, "10:00") });
      const res = await put(a.id, { date: a.date, time: "10:00" });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("slot_taken");
      // A cancelled appointment does not hold its slot.
      await assigned("cancelled", { startsAt: zonedInstant(a.date, "11:00") });
      expect((await put(a.id, { date: a.date, time: "11:00" })).status).toBe(200);
    });

    it("refuses completed, cancelled and missed appointments with 409", async () => {
      for (const status of ["completed", "cancelled", "missed"] as const) {
        const a = await onSlot(status);
        const res = await put(a.id, { date: a.date, time: "15:00" });
        expect(res.status).toBe(409);
        expect(refusal(res).code).toBe("invalid_transition");
      }
    });

    it("answers 404 for another doctor's appointment and 403 for a patient", async () => {
      const a = await onSlot();
      expect((await put(a.id, { date: a.date, time: "16:00" }, other.token)).status).toBe(404);
      expect((await put(a.id, { date: a.date, time: "16:00" }, patient.token)).status).toBe(403);
    });
  });

  describe("GET /appointment/{id} as a doctor", () => {
    it("opens an assigned appointment with myProposal, and 404s another doctor's", async () => {
      const a = await assigned("pending");
      const mine = await api.request("GET", `/appointment/${a.id}`, { token: doctor.token });
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ id: a.id, doctorId: doctor.user.id, myProposal: null });
      expect((await api.request("GET", `/appointment/${a.id}`, { token: other.token })).status).toBe(404);
    });
  });
});
