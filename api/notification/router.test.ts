import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { UNBOUND_BOOKINGS, futureDate, setUpApi, type TestReference } from "../test/harness.ts";
import { notifications } from "../db/schema.ts";
import { appointment, createdProposal } from "../../contract/appointment.ts";
import { doctorHome } from "../../contract/doctor-profile.ts";
import { notificationList } from "../../contract/notification.ts";
import { unseenNotifications } from "../../contract/patient.ts";

describe("the bell: what needs attention, written with the change, seen when listed", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });
  let ref: TestReference;
  beforeAll(async () => {
    ref = await api.reference();
  });

  let dayOffset = 10;
  /** A distinct future day per call, so two bookings never share a slot. */
  const nextDay = () => futureDate(dayOffset++);

  const list = (token: string, query = "") =>
    api.request("GET", `/notification${query}`, { answer: notificationList, token });
  const count = async (role: "patient" | "doctor", token: string) =>
    (await api.request("GET", `/${role}/notifications`, { answer: unseenNotifications, token })).body.count;
  const kinds = (body: { items: { kind: string }[] }) => body.items.map((i) => i.kind);

  async function book(patientToken: string, doctorId: string) {
    const res = await api.request("POST", "/appointment", {
      answer: appointment,
      token: patientToken,
      body: { doctorId, type: "online", date: nextDay(), time: "09:00" },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it("tells the doctor of a booking and the patient of the doctor's confirmation, reschedule and cancellation", async () => {
    const patient = await api.createPatient({ username: "Awa Bell" });
    const doctor = await api.createDoctor({ username: "Dr Bell", specialities: ["Neurology"] });
    const id = await book(patient.token, doctor.user.id);
    expect(await count("doctor", doctor.token)).toBe(1);
    expect(await count("patient", patient.token)).toBe(0);

    const seen = await list(doctor.token);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ total: 1, page: 1, limit: 20, totalPages: 1, unseen: 0 });
    expect(seen.body.items).toEqual([
      {
        id: expect.any(Number),
        kind: "appointment_booked",
        new: true,
        createdAt: expect.any(String),
        actorName: "Awa Bell",
        Appointment: {
          id,
          date: expect.any(String),
          time: expect.stringMatching(/T09:00:00\+01:00$/),
          status: "pending",
          category: "direct",
          assigned: true,
        },
      },
    ]);
    // Listed once: seen, so the bell drops and a second view says it is no longer new.
    expect(await count("doctor", doctor.token)).toBe(0);
    expect((await list(doctor.token)).body.items[0].new).toBe(false);

    expect(
      (await api.request("PUT", `/appointment/${id}`, { token: doctor.token, body: { status: "confirmed" } })).status,
    ).toBe(200);
    expect(
      (
        await api.request("PUT", `/appointment/${id}`, {
          token: doctor.token,
          body: { date: nextDay(), time: "10:00" },
        })
      ).status,
    ).toBe(200);
    expect(await count("patient", patient.token)).toBe(2);
    const patientView = await list(patient.token);
    expect(kinds(patientView.body)).toEqual(["appointment_rescheduled", "appointment_confirmed"]);
    expect(patientView.body.items[0]).toMatchObject({
      new: true,
      actorName: "Dr Bell",
      Appointment: { id, status: "confirmed" },
    });

    const second = await book(patient.token, doctor.user.id);
    expect(
      (await api.request("PUT", `/appointment/${second}`, { token: doctor.token, body: { status: "cancelled" } }))
        .status,
    ).toBe(200);
    expect(kinds((await list(patient.token)).body)[0]).toBe("appointment_cancelled");
  });

  it("tells the doctor when the patient cancels, and nobody about their own acts", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Neurology"] });
    const id = await book(patient.token, doctor.user.id);
    expect(
      (await api.request("PATCH", `/appointment/${id}`, { token: patient.token, body: { status: "cancelled" } }))
        .status,
    ).toBe(200);
    expect(kinds((await list(doctor.token)).body)).toEqual(["appointment_cancelled", "appointment_booked"]);
    expect((await list(patient.token)).body.total).toBe(0);
  });

  it("tells the doctors who may answer an open request, the patient of each proposal, and the chosen doctor of the acceptance", async () => {
    const patient = await api.createPatient({ username: "Binta Request" });
    const derm = await api.createDoctor({ username: "Dr Derm", specialities: ["Dermatology"] });
    const derm2 = await api.createDoctor({ username: "Dr Derm Two", specialities: ["Dermatology"] });
    const anyone = await api.createDoctor({ specialities: [] });
    const cardio = await api.createDoctor({ specialities: ["Cardiology"] });
    const unverified = await api.createDoctor({ specialities: ["Dermatology"], verification: "pending" });
    const res = await api.request("POST", "/appointment", {
      answer: appointment,
      token: patient.token,
      body: {
        category: "random",
        specialityId: ref.speciality("Dermatology").id,
        type: "online",
        date: nextDay(),
        time: "11:00",
      },
    });
    expect(res.status).toBe(201);
    const request = res.body.id as string;
    expect(await count("doctor", derm.token)).toBe(1);
    expect(await count("doctor", derm2.token)).toBe(1);
    expect(await count("doctor", anyone.token)).toBe(1);
    expect(await count("doctor", cardio.token)).toBe(0);
    expect(await count("doctor", unverified.token)).toBe(0);
    expect((await list(derm.token, "?limit=1")).body.items).toMatchObject([
      {
        kind: "open_request",
        new: true,
        actorName: "Binta Request",
        Appointment: { id: request, category: "random", assigned: false },
      },
    ]);

    // Proposing is answering: the doctor's own open-request notice needs no more attention.
    const proposal = await api.request("POST", "/appointment-proposal", {
      answer: createdProposal,
      token: derm2.token,
      body: { appointmentId: request },
    });
    expect(proposal.status).toBe(201);
    expect(await count("doctor", derm2.token)).toBe(0);
    expect((await list(patient.token)).body.items).toMatchObject([
      { kind: "proposal_received", actorName: "Dr Derm Two", Appointment: { id: request } },
    ]);

    expect(
      (await api.request("PATCH", `/appointment-proposal/${proposal.body.id}/accept`, { token: patient.token })).status,
    ).toBe(200);
    expect(kinds((await list(derm2.token)).body)).toEqual(["proposal_accepted"]);
    // Taken: the other doctors have nothing left to answer, and no link to a request they cannot open.
    expect((await list(anyone.token)).body.total).toBe(0);
    expect(await count("doctor", derm.token)).toBe(0);
  });

  it("withdraws an open request's notices when the patient cancels it", async () => {
    const patient = await api.createPatient();
    const ent = await api.createDoctor({ specialities: ["ENT"] });
    const res = await api.request("POST", "/appointment", {
      answer: appointment,
      token: patient.token,
      body: {
        category: "random",
        specialityId: ref.speciality("ENT").id,
        type: "online",
        date: nextDay(),
        time: "14:00",
      },
    });
    expect(await count("doctor", ent.token)).toBe(1);
    expect(
      (
        await api.request("PATCH", `/appointment/${res.body.id}`, {
          token: patient.token,
          body: { status: "cancelled" },
        })
      ).status,
    ).toBe(200);
    expect(await count("doctor", ent.token)).toBe(0);
  });

  it("leaves no notice behind when the change is refused (the same transaction)", async () => {
    const patient = await api.createPatient();
    const other = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Psychiatry"] });
    const date = nextDay();
    const body = { doctorId: doctor.user.id, type: "online", date, time: "15:00" };
    expect((await api.request("POST", "/appointment", { token: patient.token, body })).status).toBe(201);
    const taken = await api.request("POST", "/appointment", { token: other.token, body });
    expect(taken.status).toBe(409);
    expect(await api.db.select().from(notifications).where(eq(notifications.userId, doctor.user.id))).toHaveLength(1);
  });

  it("pages newest first like the other lists, marking only the page shown", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Orthopedics"] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await book(patient.token, doctor.user.id));
    const first = await list(doctor.token, "?page=1&limit=2");
    expect(first.body).toMatchObject({ total: 5, page: 1, limit: 2, totalPages: 3, unseen: 3 });
    expect(first.body.items.map((i: { Appointment: { id: string } }) => i.Appointment.id)).toEqual([ids[4], ids[3]]);
    const last = await list(doctor.token, "?page=3&limit=2");
    expect(last.body.items.map((i: { Appointment: { id: string } }) => i.Appointment.id)).toEqual([ids[0]]);
    expect(last.body.unseen).toBe(2);
    expect((await list(doctor.token, "?page=9&limit=2")).body).toMatchObject({ items: [], total: 5, unseen: 2 });
    // A limit above the maximum is capped.
    expect((await list(doctor.token, "?limit=500")).body.limit).toBe(50);

    const all = await api.request("POST", "/notification/seen", { token: doctor.token });
    expect(all).toMatchObject({ status: 200, body: { unseen: 0 } });
    expect(await count("doctor", doctor.token)).toBe(0);
  });

  it("refuses hostile page numbers and limits with 400", async () => {
    const doctor = await api.createDoctor({ specialities: ["Orthopedics"] });
    for (const query of [
      "?page=0",
      "?page=-1",
      "?page=abc",
      "?page=1.5",
      "?page=1e400",
      "?page=99999999999999999999",
      "?limit=0",
      "?limit=-5",
      "?limit=x",
      "?page=1&page=2",
    ]) {
      const res = await list(doctor.token, query);
      expect(res.status, query).toBe(400);
    }
    expect((await api.request("GET", "/doctor/summary?notifications=0", { token: doctor.token })).status).toBe(400);
  });

  it("shows each user only their own notices, and only to patients and doctors", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Gynecology"] });
    const stranger = await api.createDoctor({ specialities: ["Gynecology"] });
    await book(patient.token, doctor.user.id);
    expect((await list(stranger.token)).body.total).toBe(0);
    expect(await count("doctor", doctor.token)).toBe(1);
    // Marking is per user: the stranger's 'mark all' leaves the doctor's notice unseen.
    await api.request("POST", "/notification/seen", { token: stranger.token });
    expect(await count("doctor", doctor.token)).toBe(1);

    const admin = await api.createAdmin();
    expect((await list(admin.token)).status).toBe(403);
    expect((await api.request("POST", "/notification/seen", { token: admin.token })).status).toBe(403);
    expect((await api.request("GET", "/notification")).status).toBe(401);
    expect((await api.request("POST", "/notification/seen")).status).toBe(401);
    expect((await list("not-a-token")).status).toBe(401);
  });

  it("answers the bell's page inside the summary, already seen, so the count the page shows agrees", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Ophthalmology"] });
    await book(patient.token, doctor.user.id);
    await book(patient.token, doctor.user.id);
    expect((await api.request("GET", "/doctor/summary", { token: doctor.token })).body).toEqual({
      count: 2,
      verification: "verified",
      rejectionReason: null,
    });
    const res = await api.request("GET", "/doctor/summary?notifications=1", {
      answer: doctorHome,
      token: doctor.token,
    });
    expect(res.body).toMatchObject({
      count: 0,
      verification: "verified",
      notifications: { total: 2, page: 1, totalPages: 1 },
    });
    expect(res.body.notifications!.items.map((i) => i.new)).toEqual([true, true]);

    const doctorBooked = await api.createDoctor({ specialities: ["Ophthalmology"] });
    const id = await book(patient.token, doctorBooked.user.id);
    await api.request("PUT", `/appointment/${id}`, { token: doctorBooked.token, body: { status: "confirmed" } });
    expect((await api.request("GET", "/patient/summary", { token: patient.token })).body).toEqual({ count: 1 });
    const home = await api.request("GET", "/patient/summary?notifications=1&dashboard=1", { token: patient.token });
    expect(home.body).toMatchObject({
      count: 0,
      notifications: { total: 1, items: [{ kind: "appointment_confirmed", new: true }] },
      dashboard: { total: 3 },
    });
  });
});
