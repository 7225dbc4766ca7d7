// The front desk over HTTP (docs/product.md, The front desk), on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL: who may call what (every role against every new endpoint), the
// admin's staff and the invitation, records by phone, booking on behalf under the one availability
// rule (the notice aside), the day with its arrivals, walk-ins and no-shows, the doctor's queue,
// and the SMS the patient gets only with recorded consent (a real SMPP gateway, api/test/smpp.ts).
// The two widest tests have a generous timeout: on a loaded machine they make hundreds of calls.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffList } from "../../contract/admin.ts";
import { daySlots } from "../../contract/appointment.ts";
import { accessLogPage } from "../../contract/patient.ts";
import { STAFF_PAGE_SIZE } from "../../contract/constants.ts";
import { daySheet, deskPatient, deskPatientList, doctorQueue, phoneTaken } from "../../contract/reception.ts";
import { insertAppointment } from "../appointment/test-factories.ts";
import { appointments, smsOutbox, workingPlans } from "../db/schema.ts";
import { septets, toGsm7 } from "../sms/texts.ts";
import { futureDate, refusal, type TestApi, type TestDoctor, type TestReceptionist } from "../test/harness.ts";
import type { SmppServer } from "../test/smpp.ts";
import { startApiWithGateway } from "../test/api-with-gateway.ts";
import { clinicToday, zonedInstant } from "../time.ts";

let gateway: SmppServer;
let api: TestApi;

beforeAll(async () => {
  ({ api, gateway } = await startApiWithGateway());
});
afterAll(async () => {
  await api.close();
  await gateway.stop();
});

const as = (who: { token: string }) => ({
  get: (path: string) => api.request("GET", path, { token: who.token }),
  send: (method: string, path: string, body?: unknown) => api.request(method, path, { token: who.token, body }),
});

let numbers = 0;
/** A Cameroonian mobile number of its own for each record (E.164). */
const newNumber = () => `+2376910${String(10_000 + ++numbers * 7 + Math.floor(Math.random() * 5)).slice(-5)}`;

/** A patient record made at the desk by `desk`. */
async function deskRecord(desk: TestReceptionist, fields: Record<string, unknown> = {}) {
  const res = await as(desk).send("POST", "/reception/patients", {
    username: "Awa Ngono",
    phone: newNumber(),
    ...fields,
  });
  expect(res.status).toBe(201);
  return deskPatient.parse(res.body);
}

/** Today's instant at `hhmm` in the clinic's zone. */
const today = (hhmm: string) => zonedInstant(clinicToday(), hhmm);

describe("who may call the front desk's endpoints", () => {
  it("gives each of the four roles only its own, and refuses the desk the doctor's and admin's data", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor({ username: "Dr Elsewhere" });
    const desk = await api.createReceptionist([doctor.user.id]);
    const patient = await api.createPatient();
    const admin = await api.createAdmin();
    const staffId = desk.user.id;
    const theirs = await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    const calls: [string, string, unknown?][] = [
      ["GET", "/admin/staff"],
      ["GET", `/admin/staff/${staffId}`],
      ["POST", "/admin/staff", { username: "New desk", email: api.unique("staff"), doctorIds: [] }],
      ["PUT", `/admin/staff/${staffId}`, { doctorIds: [doctor.user.id] }],
      ["POST", "/reception/patients", { username: "Someone New", phone: newNumber() }],
      ["GET", "/reception/patients?q=Test"],
      ["GET", `/reception/patients/${patient.user.id}`],
      [
        "POST",
        "/reception/appointments",
        { patientId: patient.user.id, doctorId: doctor.user.id, date: futureDate(30), time: "15:00" },
      ],
      ["PUT", `/reception/appointments/${theirs.id}`, { status: "cancelled" }],
      ["POST", `/reception/appointments/${theirs.id}/arrival`],
      ["POST", "/reception/walk-ins", { patientId: patient.user.id, doctorId: doctor.user.id }],
      ["GET", "/reception/day"],
      ["GET", "/doctor/queue"],
      ["POST", `/doctor/queue/${theirs.id}/start`],
    ];
    const owner = (path: string) =>
      path.startsWith("/admin") ? "admin" : path.startsWith("/reception") ? "receptionist" : "doctor";
    const roles = { patient, doctor, admin, receptionist: desk };
    for (const [method, path, body] of calls) {
      for (const [role, who] of Object.entries(roles)) {
        const res = await as(who).send(method, path, body);
        if (role === owner(path)) expect(res.status, `${role} ${method} ${path}`).not.toBe(403);
        else expect([res.status, refusal(res).code], `${role} ${method} ${path}`).toEqual([403, "forbidden"]);
      }
    }
    // Last: it deactivates the receptionist the calls above used.
    for (const [role, who] of Object.entries(roles)) {
      const res = await as(who).send("DELETE", `/admin/staff/${staffId}`);
      expect(res.status, role).toBe(role === "admin" ? 200 : role === "receptionist" ? 401 : 403);
    }

    const desk2 = await api.createReceptionist([doctor.user.id]);
    expect((await as(desk2).get("/consultation")).status).toBe(403);
    expect((await as(desk2).get("/admin/doctors")).status).toBe(403);
    expect((await as(desk2).get("/admin/closures")).status).toBe(403);
    expect((await as(desk2).get("/doctor/working-plan")).status).toBe(403);
    // The doctor's appointment is nothing the desk reads through the patients' and doctors' calls.
    expect((await as(desk2).get(`/appointment/${theirs.id}`)).status).toBe(404);
    const notServed = await as(desk2).send("POST", "/reception/appointments", {
      patientId: patient.user.id,
      doctorId: other.user.id,
      date: futureDate(30),
      time: "09:00",
    });
    expect([notServed.status, refusal(notServed).code]).toEqual([403, "doctor_not_served"]);
    const walkIn = await as(desk2).send("POST", "/reception/walk-ins", {
      patientId: patient.user.id,
      doctorId: other.user.id,
    });
    expect([walkIn.status, refusal(walkIn).code]).toEqual([403, "doctor_not_served"]);
    const elsewhere = await insertAppointment(api.db, { patientId: patient.user.id, doctorId: other.user.id });
    for (const [method, path, body] of [
      ["PUT", `/reception/appointments/${elsewhere.id}`, { status: "cancelled" }],
      ["POST", `/reception/appointments/${elsewhere.id}/arrival`, undefined],
    ] as const) {
      expect((await as(desk2).send(method, path, body)).status).toBe(404);
    }
  }, 300_000);
});

describe("the admin's staff", () => {
  it("invites a receptionist, whose code sets the password; deactivation ends tokens and login at once", async () => {
    const admin = await api.createAdmin();
    const doctor = await api.createDoctor({ username: "Dr Served" });
    const email = api.unique("desk");
    const made = await as(admin).send("POST", "/admin/staff", {
      username: "Aïcha Desk",
      email,
      doctorIds: [doctor.user.id],
    });
    expect(made.status).toBe(201);
    const { id } = made.body as { id: string };
    const again = await as(admin).send("POST", "/admin/staff", {
      username: "Twin",
      email: email.toUpperCase(),
      doctorIds: [],
    });
    expect([again.status, refusal(again).code]).toEqual([409, "email_taken"]);
    const unknownDoctor = await as(admin).send("POST", "/admin/staff", {
      username: "Nobody",
      email: api.unique("desk"),
      doctorIds: [id],
    });
    expect([unknownDoctor.status, refusal(unknownDoctor).code]).toEqual([400, "invalid_doctor"]);

    const code = api.mailer.lastCodeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    const invitation = api.mailer.messages.find((m) => m.to === email)!;
    expect(invitation.text).toContain("/reset-password");
    const login = () =>
      api.request("POST", "/auth/login", { body: { email, password: "Desk-pass-1", role: "receptionist" } });
    expect((await login()).status).toBe(401);
    const reset = await api.request("POST", "/auth/reset-password", { body: { email, code, password: "Desk-pass-1" } });
    expect(reset.status).toBe(200);
    const signedIn = await login();
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body as { token: { token: string } }).token.token;
    expect((await api.request("GET", "/reception/day", { token })).status).toBe(200);

    const list = staffList.parse((await as(admin).get("/admin/staff")).body);
    const member = list.staff.find((s) => s.id === id)!;
    expect(member).toMatchObject({ username: "Aïcha Desk", invitationAccepted: true, deactivatedAt: null });
    expect(member.doctors).toEqual([{ id: doctor.user.id, username: "Dr Served" }]);
    const updated = await as(admin).send("PUT", `/admin/staff/${id}`, { doctorIds: [] });
    expect((updated.body as { doctors: unknown[] }).doctors).toEqual([]);

    const gone = await as(admin).send("DELETE", `/admin/staff/${id}`);
    expect(gone.status).toBe(200);
    expect((gone.body as { deactivatedAt: string | null }).deactivatedAt).not.toBeNull();
    expect((await api.request("GET", "/reception/day", { token })).status).toBe(401);
    expect((await login()).status).toBe(401);
  });

  it("lists the staff a page at a time, newest first, and refuses a page that is not one", async () => {
    const admin = await api.createAdmin();
    const made: string[] = [];
    for (const name of ["First desk", "Second desk", "Third desk"]) {
      const answer = await as(admin).send("POST", "/admin/staff", {
        username: name,
        email: api.unique("desk"),
        doctorIds: [],
      });
      made.push((answer.body as { id: string }).id);
    }
    await as(admin).send("DELETE", `/admin/staff/${made[2]}`);
    const first = staffList.parse((await as(admin).get("/admin/staff?limit=2")).body);
    // The newest first, deactivated or not: the admin finds who they just changed on the first page.
    expect(first.staff.map((s) => s.id)).toEqual([made[2], made[1]]);
    expect(first).toMatchObject({ page: 1, limit: 2 });
    expect(first.total).toBeGreaterThanOrEqual(3);
    const second = staffList.parse((await as(admin).get("/admin/staff?limit=2&page=2")).body);
    expect(second.staff[0]!.id).toBe(made[0]);
    expect((await as(admin).get("/admin/staff")).body).toMatchObject({ limit: STAFF_PAGE_SIZE });
    // One receptionist by id, wherever their page: the staff page's dialogs open on one.
    expect((await as(admin).get(`/admin/staff/${made[0]}`)).body).toMatchObject({
      id: made[0],
      username: "First desk",
    });
    for (const id of ["not-an-id", "00000000-0000-4000-8000-000000000000", admin.user.id])
      expect((await as(admin).get(`/admin/staff/${id}`)).status, id).toBe(404);
    // A larger page than allowed is the largest allowed, as every list does.
    expect((await as(admin).get("/admin/staff?limit=5000")).body).toMatchObject({ limit: 100 });
    for (const query of ["page=0", "page=x", "limit=0", "limit=-1"]) {
      const refused = await as(admin).get(`/admin/staff?${query}`);
      expect([refused.status, refusal(refused).code], query).toEqual([
        400,
        query.startsWith("page") ? "invalid_page" : "invalid_limit",
      ]);
    }
  });
});

describe("patient records made at the desk", () => {
  let doctor: TestDoctor;
  let desk: TestReceptionist;
  beforeAll(async () => {
    doctor = await api.createDoctor({ username: "Dr Records" });
    desk = await api.createReceptionist([doctor.user.id], "Nadège Accueil");
  });

  it("makes one record for a phone however it is written, and names the patient who has it", async () => {
    const ways = ["+237 691 234 567", "691234567", "6.91.23.45.67", "00237 691-234-567"];
    const answers = [];
    for (const phone of ways)
      answers.push(await as(desk).send("POST", "/reception/patients", { username: "Paul Mbida", phone }));
    expect(answers.map((a) => a.status)).toEqual([201, 409, 409, 409]);
    const first = deskPatient.parse(answers[0].body);
    expect(first).toMatchObject({ phone: "+237691234567", online: false, createdBy: { id: desk.user.id } });
    for (const taken of answers.slice(1)) {
      expect(phoneTaken.parse(taken.body).patients).toEqual([{ id: first.id, username: "Paul Mbida" }]);
    }
  });

  it("makes one record when four desks type one number at once", async () => {
    const phone = "670998877";
    const answers = await Promise.all(
      ["+237670998877", "670 99 88 77", "670-998-877", phone].map((p) =>
        as(desk).send("POST", "/reception/patients", { username: "Esther Nkolo", phone: p }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("counts an online account's contact phone, verified or not", async () => {
    const online = await api.createPatient({ username: "Online Ada", phone: "+237699000111", phoneVerified: false });
    const res = await as(desk).send("POST", "/reception/patients", { username: "Ada Again", phone: "699000111" });
    expect(res.status).toBe(409);
    expect(phoneTaken.parse(res.body).patients).toEqual([{ id: online.user.id, username: "Online Ada" }]);
  });

  it("finds any patient by phone, by name only the desk's and the served doctors' patients", async () => {
    const mine = await api.createPatient({ username: "Zephyrin Served", phone: "+237699000222" });
    const stranger = await api.createPatient({ username: "Zephyrin Stranger", phone: "+237699000333" });
    await insertAppointment(api.db, { patientId: mine.user.id, doctorId: doctor.user.id });
    const byName = deskPatientList.parse((await as(desk).get("/reception/patients?q=zephyrin")).body);
    expect(byName.patients.map((p) => p.username)).toEqual(["Zephyrin Served"]);
    const byPhone = deskPatientList.parse((await as(desk).get("/reception/patients?phone=699%20000%20333")).body);
    expect(byPhone.patients.map((p) => p.id)).toEqual([stranger.user.id]);
    expect((await as(desk).get(`/reception/patients/${stranger.user.id}`)).status).toBe(404);
    expect((await as(desk).get(`/reception/patients/${mine.user.id}`)).status).toBe(200);
    const missing = await as(desk).get("/reception/patients");
    expect([missing.status, refusal(missing).code]).toEqual([400, "invalid"]);

    // Opening the record is in the patient's 'Who saw my data', with the receptionist's name.
    const log = accessLogPage.parse((await as(mine).get("/patient/access-log")).body);
    expect(log.items.some((e) => e.Actor?.username === "Nadège Accueil" && e.Actor.role === "receptionist")).toBe(true);
  });
});

describe("booking on the patient's behalf", () => {
  let doctor: TestDoctor;
  let desk: TestReceptionist;
  let patientId: string;
  beforeAll(async () => {
    doctor = await api.createDoctor({ username: "Dr Rule" });
    desk = await api.createReceptionist([doctor.user.id]);
    patientId = (await deskRecord(desk)).id;
  });
  const book = (date: string, time: string, who: { token: string } = desk) =>
    as(who).send("POST", "/reception/appointments", { patientId, doctorId: doctor.user.id, date, time });

  it("is confirmed at once, and the patient sees it in their own list", async () => {
    const online = await api.createPatient();
    const res = await as(desk).send("POST", "/reception/appointments", {
      patientId: online.user.id,
      doctorId: doctor.user.id,
      date: futureDate(3),
      time: "09:00",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "confirmed", state: "booked", walkIn: false });
    const mine = (await as(online).get("/appointment")).body as { appointments: { id: string; status: string }[] };
    expect(mine.appointments).toContainEqual(
      expect.objectContaining({ id: (res.body as { id: string }).id, status: "confirmed" }),
    );
  });

  it("meets every refusal of the availability rule but the notice", async () => {
    const refused = async (res: Awaited<ReturnType<typeof book>>) => [res.status, refusal(res).code];
    const date = futureDate(4);
    expect((await book(date, "10:00")).status).toBe(201);
    expect(await refused(await book(date, "10:00"))).toEqual([409, "slot_taken"]);
    const saturday = (() => {
      let d = Date.parse(`${futureDate(5)}T12:00:00Z`);
      while (new Date(d).getUTCDay() !== 6) d += 86_400_000;
      return new Date(d).toISOString().slice(0, 10);
    })();
    expect(await refused(await book(saturday, "09:00"))).toEqual([409, "day_not_worked"]);
    const plan = (await as(doctor).get("/doctor/working-plan")).body as Record<string, unknown> & {
      week: Record<string, string[]>;
    };
    const week = Object.fromEntries(
      Object.entries(plan.week).map(([day, slots]) => [day, slots.filter((s) => s !== "16:00")]),
    );
    expect(
      (await as(doctor).send("PUT", "/doctor/working-plan", { ...plan, week, minimumNoticeHours: 168 })).status,
    ).toBe(200);
    expect(await refused(await book(date, "16:00"))).toEqual([409, "slot_not_offered"]);
    expect(await refused(await book(futureDate(70), "09:00"))).toEqual([409, "beyond_horizon"]);
    const closedDay = futureDate(6);
    const admin = await api.createAdmin();
    expect((await as(admin).send("POST", "/admin/closures", { date: closedDay, reason: "Inventory" })).status).toBe(
      201,
    );
    expect(await refused(await book(closedDay, "09:00"))).toEqual([409, "clinic_closed"]);
    const awayDay = futureDate(7);
    expect((await as(doctor).send("POST", "/doctor/absences", { from: awayDay, to: awayDay })).status).toBe(201);
    expect(await refused(await book(awayDay, "09:00"))).toEqual([409, "doctor_absent"]);
    const yesterday = new Date(Date.parse(`${clinicToday()}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(await refused(await book(yesterday, "09:00"))).toEqual([400, "past_date"]);

    // A week's notice binds the patient, not the desk.
    const soon = futureDate(2);
    const online = await api.createPatient();
    const byPatient = await as(online).send("POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "in-person",
      date: soon,
      time: "11:00",
    });
    expect(await refused(byPatient)).toEqual([409, "notice_too_short"]);
    expect((await book(soon, "11:00")).status).toBe(201);
  });

  it("reschedules and cancels for the patient", async () => {
    const made = await book(futureDate(8), "14:00");
    const { id } = made.body as { id: string };
    const moved = await as(desk).send("PUT", `/reception/appointments/${id}`, { date: futureDate(8), time: "15:00" });
    expect(moved.status).toBe(200);
    expect((moved.body as { time: string }).time).toContain("T15:00:00");
    const cancelled = await as(desk).send("PUT", `/reception/appointments/${id}`, { status: "cancelled" });
    expect(cancelled.body).toMatchObject({ status: "cancelled", state: "cancelled" });
    const again = await as(desk).send("PUT", `/reception/appointments/${id}`, { status: "cancelled" });
    expect([again.status, refusal(again).code]).toEqual([409, "already_final"]);
  });

  it("gives one slot to exactly one of 100 desk and online bookings at once", async () => {
    const date = futureDate(12);
    const onlinePatients = await Promise.all(Array.from({ length: 50 }, () => api.createPatient()));
    const answers = await Promise.all([
      ...onlinePatients.map((p) =>
        as(p).send("POST", "/appointment", { doctorId: doctor.user.id, type: "in-person", date, time: "14:00" }),
      ),
      ...Array.from({ length: 50 }, () => book(date, "14:00")),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    const held = await api.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.doctorId, doctor.user.id), eq(appointments.startsAt, zonedInstant(date, "14:00"))));
    expect(held).toHaveLength(1);
  }, 300_000);
});

describe("the day, walk-ins and the doctor's queue", () => {
  let doctor: TestDoctor;
  let desk: TestReceptionist;
  beforeAll(async () => {
    doctor = await api.createDoctor({ username: "Dr Queue" });
    desk = await api.createReceptionist([doctor.user.id]);
    // Five-minute visits: the day's appointments below start ten minutes apart, and two visits
    // of one doctor never overlap (migration 0020).
    await api.db.update(workingPlans).set({ visitMinutes: 5 }).where(eq(workingPlans.doctorId, doctor.user.id));
  });
  const todays = async (hhmm: string, status: "confirmed" | "cancelled" | "pending" = "confirmed") => {
    const patient = await deskRecord(desk, { username: `Patient ${hhmm}` });
    return insertAppointment(api.db, {
      patientId: patient.id,
      doctorId: doctor.user.id,
      status,
      startsAt: today(hhmm),
      type: "in-person",
    });
  };

  it("records an arrival once, refuses another day's and a cancelled one", async () => {
    const a = await todays("00:10");
    const first = await as(desk).send("POST", `/reception/appointments/${a.id}/arrival`);
    expect(first.body).toMatchObject({ state: "arrived" });
    const second = await as(desk).send("POST", `/reception/appointments/${a.id}/arrival`);
    expect((second.body as { arrivedAt: string }).arrivedAt).toBe((first.body as { arrivedAt: string }).arrivedAt);
    const later = await insertAppointment(api.db, {
      patientId: (await deskRecord(desk)).id,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt: zonedInstant(futureDate(3), "09:00"),
    });
    const notToday = await as(desk).send("POST", `/reception/appointments/${later.id}/arrival`);
    expect([notToday.status, refusal(notToday).code]).toEqual([409, "not_today"]);
    const cancelled = await todays("00:20", "cancelled");
    const refused = await as(desk).send("POST", `/reception/appointments/${cancelled.id}/arrival`);
    expect([refused.status, refusal(refused).code]).toEqual([409, "already_final"]);
  });

  it("marks a no-show only once the start has passed", async () => {
    const started = await todays("00:30");
    const missed = await as(desk).send("PUT", `/reception/appointments/${started.id}`, { status: "missed" });
    expect(missed.body).toMatchObject({ status: "missed", state: "noshow" });
    const ahead = await insertAppointment(api.db, {
      patientId: (await deskRecord(desk)).id,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt: zonedInstant(futureDate(3), "10:00"),
    });
    const early = await as(desk).send("PUT", `/reception/appointments/${ahead.id}`, { status: "missed" });
    expect([early.status, refusal(early).code]).toEqual([409, "not_started"]);
  });

  it("takes a walk-in without taking a slot, and queues it by arrival after those due earlier", async () => {
    const slotsBefore = daySlots.parse(
      (await as(doctor).get(`/appointment/slots?doctorId=${doctor.user.id}&date=${clinicToday()}`)).body,
    );
    const booked = await todays("00:40");
    await as(desk).send("POST", `/reception/appointments/${booked.id}/arrival`);
    const walker = await deskRecord(desk, { username: "Walk In" });
    const walkIn = await as(desk).send("POST", "/reception/walk-ins", {
      patientId: walker.id,
      doctorId: doctor.user.id,
    });
    expect(walkIn.status).toBe(201);
    expect(walkIn.body).toMatchObject({ walkIn: true, status: "confirmed", state: "arrived" });
    const slotsAfter = daySlots.parse(
      (await as(doctor).get(`/appointment/slots?doctorId=${doctor.user.id}&date=${clinicToday()}`)).body,
    );
    expect(slotsAfter).toEqual(slotsBefore);

    const sheet = daySheet.parse((await as(desk).get("/reception/day")).body);
    expect(sheet.doctors).toEqual([{ id: doctor.user.id, username: "Dr Queue" }]);
    expect(sheet.appointments.map((a) => a.id)).toContain((walkIn.body as { id: string }).id);
    expect(JSON.stringify(sheet)).not.toMatch(/reason|diagnosis|notes|prescription/);

    const queue = doctorQueue.parse((await as(doctor).get("/doctor/queue")).body).queue;
    const order = queue.map((q) => q.id);
    expect(order.indexOf(booked.id)).toBeLessThan(order.indexOf((walkIn.body as { id: string }).id));
    expect(queue.every((q) => q.waitedMinutes >= 0)).toBe(true);

    const early = await as(doctor).send("PUT", `/appointment/${booked.id}`, { status: "completed" });
    expect(early.status).toBe(200);
    const walkInId = (walkIn.body as { id: string }).id;
    const notArrived = await todays("23:55");
    const refused = await as(doctor).send("POST", `/doctor/queue/${notArrived.id}/start`);
    expect([refused.status, refusal(refused).code]).toEqual([409, "not_arrived"]);
    const started = await as(doctor).send("POST", `/doctor/queue/${walkInId}/start`);
    expect(started.body).toMatchObject({ state: "checked-in" });
    expect(doctorQueue.parse((await as(doctor).get("/doctor/queue")).body).queue.map((q) => q.id)).not.toContain(
      walkInId,
    );
    const done = await as(doctor).send("PUT", `/appointment/${walkInId}`, { status: "completed" });
    expect(done.body).toMatchObject({ status: "completed" });
  });

  it("leaves a walk-in out of the one-booking-per-slot guard", async () => {
    const date = futureDate(9);
    const walker = await deskRecord(desk);
    await insertAppointment(api.db, {
      patientId: walker.id,
      doctorId: doctor.user.id,
      status: "confirmed",
      walkIn: true,
      arrivedAt: zonedInstant(date, "10:00"),
      startsAt: zonedInstant(date, "10:00"),
    });
    const online = await api.createPatient();
    const res = await as(online).send("POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "in-person",
      date,
      time: "10:00",
    });
    expect(res.status).toBe(201);
  });
});

describe("the patient told of a desk booking", () => {
  it("by SMS only with recorded consent, one GSM-7 message in their language, no health data", async () => {
    const doctor = await api.createDoctor({ username: "Dr Texted", specialities: ["Cardiology"] });
    const desk = await api.createReceptionist([doctor.user.id]);
    const agreed = await deskRecord(desk, { username: "Awa Consents", smsConsent: true, language: "fr" });
    const refused = await deskRecord(desk, { username: "Bello Declines" });
    for (const [patient, time] of [
      [agreed, "09:00"],
      [refused, "10:00"],
    ] as const) {
      const res = await as(desk).send("POST", "/reception/appointments", {
        patientId: patient.id,
        doctorId: doctor.user.id,
        date: futureDate(10),
        time,
      });
      expect(res.status).toBe(201);
    }
    const [sms] = await gateway.waitFor(agreed.phone!);
    expect(toGsm7(sms.text)).toBe(sms.text);
    expect(septets(sms.text)).toBeLessThanOrEqual(160);
    expect(sms.text).toMatch(/^HealthBook : votre rendez-vous du .* est confirmé/);
    expect(sms.text).not.toMatch(/Texted|Cardio|Awa/);
    const queued = await api.db
      .select({ to: smsOutbox.recipient })
      .from(smsOutbox)
      .where(eq(smsOutbox.recipient, refused.phone!));
    expect(queued).toEqual([]);
    expect(agreed.smsConsent).toMatchObject({ by: { id: desk.user.id }, method: "in_person" });
    expect(refused.smsConsent).toBeNull();
  });
});
