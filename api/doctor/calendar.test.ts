// The clinic's calendar endpoints (docs/product.md, Availability): the doctor's working plan and
// absences, the admin's closed days; who may call them, what they refuse, and an absence or a
// closed day over booked appointments (409 listing them, or cancelled with each patient's mail,
// in their language, received by a real SMTP server on 127.0.0.1).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, gte } from "drizzle-orm";
import {
  absenceList,
  closureList,
  createdAbsence,
  createdClosure,
  periodConflict,
  removed,
  workingPlanAnswer,
} from "../../contract/availability.ts";
import { appointment } from "../../contract/appointment.ts";
import { SLOTS } from "../../contract/constants.ts";
import { appointments, clinicClosures, doctorAbsences, notifications } from "../db/schema.ts";
import { createMailer } from "../mail/index.ts";
import { zonedInstant } from "../time.ts";
import { futureDate, refusal, startApi, type TestApi, type TestDoctor, type TestPatient } from "../test/harness.ts";
import { startSmtpServer, type TestSmtpServer } from "../test/smtp.ts";

let smtp: TestSmtpServer;
let api: TestApi;
beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startApi({ transport: createMailer({ smtpUrl: smtp.url }) });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

const DEFAULT_PLAN = {
  week: {
    monday: [...SLOTS],
    tuesday: [...SLOTS],
    wednesday: [...SLOTS],
    thursday: [...SLOTS],
    friday: [...SLOTS],
    saturday: [],
    sunday: [],
  },
  visitMinutes: 60,
  minimumNoticeHours: 2,
  bookingHorizonDays: 90,
};
/** What GET /doctor/working-plan answers for the default plan and no appointment. */
const DEFAULT_ANSWER = { ...DEFAULT_PLAN, outsidePlan: { appointments: [], total: 0 } };

async function book(patient: TestPatient, doctor: TestDoctor, date: string, time = "09:00") {
  const res = await api.request("POST", "/appointment", {
    answer: appointment,
    token: patient.token,
    body: { doctorId: doctor.user.id, type: "online", date, time },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("the working plan", () => {
  it("is the default for a new doctor, and a doctor changes their own", async () => {
    const doctor = await api.createDoctor();
    const got = await api.request("GET", "/doctor/working-plan", { answer: workingPlanAnswer, token: doctor.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(DEFAULT_ANSWER);
    const plan = {
      ...DEFAULT_PLAN,
      week: { ...DEFAULT_PLAN.week, wednesday: ["09:00", "10:00", "11:00"], saturday: ["11:00", "09:00", "09:00"] },
      minimumNoticeHours: 0,
    };
    const put = await api.request("PUT", "/doctor/working-plan", {
      answer: workingPlanAnswer,
      token: doctor.token,
      body: plan,
    });
    expect(put.status).toBe(200);
    // Repeats count once, in the clock's order.
    expect(put.body.week.saturday).toEqual(["09:00", "11:00"]);
    expect(
      (await api.request("GET", "/doctor/working-plan", { answer: workingPlanAnswer, token: doctor.token })).body,
    ).toEqual(put.body);
    // Another doctor's plan is untouched.
    const other = await api.createDoctor();
    expect((await api.request("GET", "/doctor/working-plan", { token: other.token })).body).toEqual(DEFAULT_ANSWER);
  });

  it("takes any starts on the 5-minute grid from 06:00 to 22:00, each a visit's length after the last", async () => {
    const doctor = await api.createDoctor();
    const morning = Array.from(
      { length: 12 },
      (_, i) => `${String(8 + Math.floor(i / 3)).padStart(2, "0")}:${["00", "20", "40"][i % 3]}`,
    );
    const week = { ...DEFAULT_PLAN.week, monday: morning, saturday: ["06:00", "21:40"], sunday: [] };
    const put = await api.request("PUT", "/doctor/working-plan", {
      answer: workingPlanAnswer,
      token: doctor.token,
      body: { ...DEFAULT_PLAN, week, visitMinutes: 20 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ visitMinutes: 20, week: { monday: morning, saturday: ["06:00", "21:40"] } });
    // A plan sent without a visit length (a client of the six hourly slots) keeps the hourly one.
    const { visitMinutes: _, ...hourly } = DEFAULT_PLAN;
    const again = await api.request("PUT", "/doctor/working-plan", { token: doctor.token, body: hourly });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(DEFAULT_ANSWER);
  });

  it.each([
    ["an unknown day", { week: { ...DEFAULT_PLAN.week, funday: [] } }, "invalid_week", /funday/],
    ["a start off the grid", { week: { ...DEFAULT_PLAN.week, monday: ["12:07"] } }, "invalid_week", /monday: 12:07/],
    ["a start that is not a time", { week: { ...DEFAULT_PLAN.week, monday: ["noon"] } }, "invalid_week", /monday/],
    ["a start before 06:00", { week: { ...DEFAULT_PLAN.week, tuesday: ["05:55"] } }, "invalid_week", /tuesday/],
    ["a visit past 22:00", { week: { ...DEFAULT_PLAN.week, friday: ["21:05"] } }, "invalid_week", /friday: 21:05/],
    [
      "starts closer than a visit",
      { week: { ...DEFAULT_PLAN.week, monday: ["09:00", "09:30"] } },
      "invalid_week",
      /monday: 09:30 starts less than 60 minutes after 09:00/,
    ],
    [
      "starts closer than a shorter visit",
      { visitMinutes: 20, week: { ...DEFAULT_PLAN.week, monday: ["09:00", "09:15"] } },
      "invalid_week",
      /monday: 09:15 starts less than 20/,
    ],
    ["a visit of 4 minutes", { visitMinutes: 4 }, "invalid_visit_minutes", /visit length must be at least 5/],
    ["a visit of 121 minutes", { visitMinutes: 121 }, "invalid_visit_minutes", /at most 120/],
    ["a visit of 17.5 minutes", { visitMinutes: 17.5 }, "invalid_visit_minutes", /whole number/],
    ["a visit length as text", { visitMinutes: "20" }, "invalid_visit_minutes", /whole number/],
    [
      "too many starts",
      { visitMinutes: 5, week: { ...DEFAULT_PLAN.week, monday: Array.from({ length: 193 }, () => "09:00") } },
      "invalid_week",
      /too many/,
    ],
    ["a day that is not a list", { week: { ...DEFAULT_PLAN.week, monday: "09:00" } }, "invalid_week", /monday/],
    ["no week", { week: undefined }, "invalid_week", /week/i],
    ["a negative notice", { minimumNoticeHours: -1 }, "invalid_notice", /notice/],
    ["an absurd notice", { minimumNoticeHours: 100000 }, "invalid_notice", /notice/],
    ["a fractional notice", { minimumNoticeHours: 1.5 }, "invalid_notice", /notice/],
    ["a notice as text", { minimumNoticeHours: "2" }, "invalid_notice", /notice/],
    ["a horizon of 0", { bookingHorizonDays: 0 }, "invalid_horizon", /horizon/],
    ["an absurd horizon", { bookingHorizonDays: 1e9 }, "invalid_horizon", /horizon/],
  ])("refuses %s with 400 and the field's code", async (_, change, code, message) => {
    const doctor = await api.createDoctor();
    const res = await api.request("PUT", "/doctor/working-plan", {
      token: doctor.token,
      body: { ...DEFAULT_PLAN, ...change },
    });
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe(code);
    expect(refusal(res).message).toMatch(message);
    expect((await api.request("GET", "/doctor/working-plan", { token: doctor.token })).body).toEqual(DEFAULT_ANSWER);
  });

  it("belongs to doctors only", async () => {
    const patient = await api.createPatient();
    const admin = await api.createAdmin();
    for (const token of [patient.token, admin.token]) {
      expect((await api.request("GET", "/doctor/working-plan", { token })).status).toBe(403);
      expect((await api.request("PUT", "/doctor/working-plan", { token, body: DEFAULT_PLAN })).status).toBe(403);
    }
    expect((await api.request("GET", "/doctor/working-plan")).status).toBe(401);
  });
});

describe("absences", () => {
  it("are declared, listed and removed by their doctor only", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor();
    const from = futureDate(20);
    const to = futureDate(22);
    const made = await api.request("POST", "/doctor/absences", {
      answer: createdAbsence,
      token: doctor.token,
      body: { from, to, reason: "  Conference  " },
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      absence: { id: expect.any(String), from, to, reason: "Conference" },
      cancelled: [],
      cancelledTotal: 0,
    });
    const list = await api.request("GET", "/doctor/absences", { answer: absenceList, token: doctor.token });
    expect(list.body.absences).toEqual([made.body.absence]);
    expect(
      (await api.request("GET", "/doctor/absences", { answer: absenceList, token: other.token })).body.absences,
    ).toEqual([]);
    // Someone else's absence is unknown to them, and stays.
    expect(
      (await api.request("DELETE", `/doctor/absences/${made.body.absence.id}`, { token: other.token })).status,
    ).toBe(404);
    expect((await api.request("DELETE", "/doctor/absences/not-a-uuid", { token: doctor.token })).status).toBe(404);
    const gone = await api.request("DELETE", `/doctor/absences/${made.body.absence.id}`, {
      answer: removed,
      token: doctor.token,
    });
    expect(gone.status).toBe(200);
    expect(
      (await api.request("GET", "/doctor/absences", { answer: absenceList, token: doctor.token })).body.absences,
    ).toEqual([]);
    expect(
      (await api.request("DELETE", `/doctor/absences/${made.body.absence.id}`, { token: doctor.token })).status,
    ).toBe(404);
  });

  it.each([
    ["an end before the start", { from: futureDate(5), to: futureDate(4) }, "invalid_period"],
    ["a period over a year", { from: futureDate(1), to: "2099-01-01" }, "invalid_period"],
    ["a date that does not exist", { from: "2030-02-31", to: "2030-03-02" }, "invalid_date"],
    ["no start", { to: futureDate(4) }, "invalid_date"],
    ["a past period", { from: "2020-01-01", to: "2020-01-02" }, "past_date"],
    ["a reason too long", { from: futureDate(4), to: futureDate(4), reason: "x".repeat(201) }, "invalid_reason"],
    ["a reason that is not text", { from: futureDate(4), to: futureDate(4), reason: { $ne: 1 } }, "invalid_reason"],
    [
      "cancelAppointments not a boolean",
      { from: futureDate(4), to: futureDate(4), cancelAppointments: "yes please" },
      "invalid",
    ],
  ])("refuses %s with 400", async (_, body, code) => {
    const doctor = await api.createDoctor();
    const res = await api.request("POST", "/doctor/absences", { token: doctor.token, body });
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe(code);
  });

  it("belong to doctors only", async () => {
    const patient = await api.createPatient();
    const admin = await api.createAdmin();
    const body = { from: futureDate(4), to: futureDate(4) };
    for (const token of [patient.token, admin.token]) {
      expect((await api.request("GET", "/doctor/absences", { token })).status).toBe(403);
      expect((await api.request("POST", "/doctor/absences", { token, body })).status).toBe(403);
      expect((await api.request("DELETE", `/doctor/absences/${crypto.randomUUID()}`, { token })).status).toBe(403);
    }
    expect((await api.request("POST", "/doctor/absences", { body })).status).toBe(401);
  });

  it("over more appointments than a page lists: the soonest 50 and the total, and every one cancelled", async () => {
    const doctor = await api.createDoctor();
    const patient = await api.createPatient();
    // 52 appointments, six a day on the default plan's slots: more than an answer lists.
    const days = Array.from({ length: 9 }, (_, i) => futureDate(40 + i));
    const startsAt = days.flatMap((day) => SLOTS.map((slot) => zonedInstant(day, slot))).slice(0, 52);
    const rows = await api.db
      .insert(appointments)
      .values(
        startsAt.map((at) => ({
          patientId: patient.user.id,
          doctorId: doctor.user.id,
          type: "online" as const,
          category: "direct" as const,
          status: "confirmed" as const,
          startsAt: at,
        })),
      )
      .returning({ id: appointments.id, startsAt: appointments.startsAt });
    const soonest = rows.sort((x, y) => x.startsAt.getTime() - y.startsAt.getTime()).map((r) => r.id);
    const body = { from: days[0], to: days.at(-1), reason: "Conference" };

    const refused = await api.request("POST", "/doctor/absences", { token: doctor.token, body });
    expect(refused.status).toBe(409);
    const conflict = periodConflict.parse(refused.body);
    expect(conflict.total).toBe(52);
    expect(conflict.appointments.map((a) => a.id)).toEqual(soonest.slice(0, 50));

    const made = await api.request("POST", "/doctor/absences", {
      answer: createdAbsence,
      token: doctor.token,
      body: { ...body, cancelAppointments: true },
    });
    expect(made.status).toBe(201);
    expect(made.body.cancelledTotal).toBe(52);
    expect(made.body.cancelled.map((a) => a.id)).toEqual(soonest.slice(0, 50));
    const statuses = await api.db
      .select({ status: appointments.status })
      .from(appointments)
      .where(eq(appointments.doctorId, doctor.user.id));
    expect(statuses.map((r) => r.status)).toEqual(Array(52).fill("cancelled"));
  });

  it("over booked appointments: 409 listing them, then cancelled with cancelAppointments and each patient told in their language", async () => {
    const doctor = await api.createDoctor({ username: "Dr Away" });
    const french = await api.createPatient({ username: "Awa", locale: "fr" });
    const english = await api.createPatient({ username: "John" });
    const first = await book(french, doctor, futureDate(30), "09:00");
    const second = await book(english, doctor, futureDate(31), "14:00");
    const outside = await book(english, doctor, futureDate(32), "10:00");
    const body = { from: futureDate(30), to: futureDate(31), reason: "Training" };

    const refused = await api.request("POST", "/doctor/absences", { token: doctor.token, body });
    expect(refused.status).toBe(409);
    const conflict = periodConflict.parse(refused.body);
    expect(conflict.appointments.map((a) => [a.id, a.Patient?.username, a.status])).toEqual([
      [first.id, "Awa", "pending"],
      [second.id, "John", "pending"],
    ]);
    expect(
      (await api.request("GET", "/doctor/absences", { answer: absenceList, token: doctor.token })).body.absences,
    ).toEqual([]);

    const before = { fr: smtp.to(french.user.email).length, en: smtp.to(english.user.email).length };
    const made = await api.request("POST", "/doctor/absences", {
      answer: createdAbsence,
      token: doctor.token,
      body: { ...body, cancelAppointments: true },
    });
    expect(made.status).toBe(201);
    expect(made.body.cancelled.map((a) => a.id)).toEqual([first.id, second.id]);
    const statuses = await api.db
      .select({ id: appointments.id, status: appointments.status })
      .from(appointments)
      .where(eq(appointments.doctorId, doctor.user.id));
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [first.id]: "cancelled",
      [second.id]: "cancelled",
      [outside.id]: "pending",
    });
    // Each patient's bell says so.
    const notices = await api.db
      .select({ userId: notifications.userId, kind: notifications.kind })
      .from(notifications)
      .where(eq(notifications.actorId, doctor.user.id));
    expect(notices).toEqual(
      expect.arrayContaining([
        { userId: french.user.id, kind: "appointment_cancelled" },
        { userId: english.user.id, kind: "appointment_cancelled" },
      ]),
    );

    const frMail = (await smtp.parsedTo(french.user.email)).slice(before.fr);
    const enMail = (await smtp.parsedTo(english.user.email)).slice(before.en);
    expect(frMail).toHaveLength(1);
    expect(enMail).toHaveLength(1);
    expect(frMail[0].subject).toBe("Votre rendez-vous avec Dr Away est annulé");
    expect(frMail[0].text).toContain("le médecin est absent ce jour-là");
    expect(frMail[0].text).toContain("Motif indiqué : Training");
    expect(enMail[0].subject).toBe("Your appointment with Dr Away is cancelled");
    expect(enMail[0].text).toContain("the doctor is away that day");
    expect(enMail[0].text).toContain("Reason given: Training");
    // The slots are then refused for the absence.
    const again = await api.request("POST", "/appointment", {
      token: english.token,
      body: { doctorId: doctor.user.id, type: "online", date: futureDate(30), time: "10:00" },
    });
    expect(again.status).toBe(409);
    expect(refusal(again).code).toBe("doctor_absent");
  });
});

describe("how many absences and closed days there can be", () => {
  it("a doctor has at most 100 absences to come: the 101st is a 409 too_many_absences, past ones do not count", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor();
    const day = (n: number) => futureDate(100 + n);
    // An absence already over, and 99 to come, written directly; the 100th is declared.
    await api.db
      .insert(doctorAbsences)
      .values([
        { doctorId: doctor.user.id, startsOn: "2021-06-01", endsOn: "2021-06-02" },
        ...Array.from({ length: 99 }, (_, i) => ({ doctorId: doctor.user.id, startsOn: day(i), endsOn: day(i) })),
      ]);
    const declare = (who: TestDoctor, date: string) =>
      api.request("POST", "/doctor/absences", { token: who.token, body: { from: date, to: date } });
    expect((await declare(doctor, day(99))).status).toBe(201);
    const refused = await declare(doctor, day(100));
    expect(refused.status).toBe(409);
    expect(refusal(refused).code).toBe("too_many_absences");
    // Nothing was added, another doctor is not concerned, and removing one makes room.
    const list = await api.request("GET", "/doctor/absences", { answer: absenceList, token: doctor.token });
    expect(list.body.absences).toHaveLength(100);
    expect((await declare(other, day(100))).status).toBe(201);
    expect(
      (await api.request("DELETE", `/doctor/absences/${list.body.absences[0].id}`, { token: doctor.token })).status,
    ).toBe(200);
    expect((await declare(doctor, day(100))).status).toBe(201);
  });

  it("the clinic has at most 400 closed days to come: then a 409 too_many_closures", async () => {
    const admin = await api.createAdmin();
    const coming = (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body
      .closures.length;
    // Days after the fixed holidays (through 2036), up to the bound, written directly.
    const start = Date.parse("2040-01-01T00:00:00Z");
    const dates = Array.from({ length: 401 - coming }, (_, i) =>
      new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    );
    await api.db.insert(clinicClosures).values(dates.slice(0, -2).map((date) => ({ date, reason: "Filler" })));
    try {
      const close = (date: string) =>
        api.request("POST", "/admin/closures", { token: admin.token, body: { date, reason: "One more" } });
      expect((await close(dates.at(-2)!)).status).toBe(201);
      const refused = await close(dates.at(-1)!);
      expect(refused.status).toBe(409);
      expect(refusal(refused).code).toBe("too_many_closures");
    } finally {
      await api.db.delete(clinicClosures).where(gte(clinicClosures.date, "2040-01-01"));
    }
  });
});

describe("closed days", () => {
  it("hold Cameroon's fixed public holidays through 2036 from the start", async () => {
    const admin = await api.createAdmin();
    const res = await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token });
    expect(res.status).toBe(200);
    const dates = res.body.closures.map((c) => c.date);
    for (const day of ["01-01", "02-11", "05-01", "05-20", "08-15", "12-25"]) expect(dates).toContain(`2036-${day}`);
    expect(dates).toContain("2027-12-25");
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((d) => d >= new Date().toISOString().slice(0, 10).slice(0, 8))).toBe(true);
  });

  it("are listed until a day asked for, with how many come later, each holiday named by its key", async () => {
    const admin = await api.createAdmin();
    const all = (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body;
    expect(all.later).toBe(0);
    const res = await api.request("GET", "/admin/closures?to=2030-06-30", { answer: closureList, token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.closures).toEqual(all.closures.filter((c) => c.date <= "2030-06-30"));
    expect(res.body.later).toBe(all.closures.length - res.body.closures.length);
    expect(res.body.closures.find((c) => c.date === "2030-05-01")).toMatchObject({
      holiday: "labour_day",
      reason: "Labour Day / Fête du Travail",
    });
    const added = await api.request("POST", "/admin/closures", {
      answer: createdClosure,
      token: admin.token,
      body: { date: futureDate(26), reason: "Good Friday" },
    });
    expect(added.body.closure.holiday).toBeNull();
    for (const to of ["2030-02-31", "soon", ""]) {
      const refused = await api.request("GET", `/admin/closures?to=${to}`, { token: admin.token });
      expect([to, refused.status, refusal(refused).code]).toEqual([to, 400, "invalid_date"]);
    }
    await api.request("DELETE", `/admin/closures/${added.body.closure.id}`, { token: admin.token });
  });

  it("are added and removed by the admin; the same day twice is a 409", async () => {
    const admin = await api.createAdmin();
    const date = futureDate(25);
    const made = await api.request("POST", "/admin/closures", {
      answer: createdClosure,
      token: admin.token,
      body: { date, reason: "Good Friday" },
    });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      closure: { id: expect.any(String), date, reason: "Good Friday", holiday: null },
      cancelled: [],
      cancelledTotal: 0,
    });
    const twice = await api.request("POST", "/admin/closures", { token: admin.token, body: { date, reason: "Again" } });
    expect(twice.status).toBe(409);
    expect(refusal(twice).code).toBe("closure_exists");
    expect(
      (await api.request("GET", "/admin/closures", { answer: closureList, token: admin.token })).body.closures,
    ).toContainEqual(made.body.closure);
    expect(
      (await api.request("DELETE", `/admin/closures/${made.body.closure.id}`, { answer: removed, token: admin.token }))
        .status,
    ).toBe(200);
    expect(
      (await api.request("DELETE", `/admin/closures/${made.body.closure.id}`, { token: admin.token })).status,
    ).toBe(404);
    expect((await api.request("DELETE", "/admin/closures/1 or 1=1", { token: admin.token })).status).toBe(404);
  });

  it.each([
    ["no reason", { date: futureDate(4) }, "invalid_reason"],
    ["a blank reason", { date: futureDate(4), reason: "   " }, "invalid_reason"],
    ["a reason too long", { date: futureDate(4), reason: "x".repeat(201) }, "invalid_reason"],
    ["no date", { reason: "Eid" }, "invalid_date"],
    ["a date that does not exist", { date: "2031-13-01", reason: "Eid" }, "invalid_date"],
    ["a past date", { date: "2021-06-01", reason: "Eid" }, "past_date"],
  ])("refuses %s with 400", async (_, body, code) => {
    const admin = await api.createAdmin();
    const res = await api.request("POST", "/admin/closures", { token: admin.token, body });
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe(code);
  });

  it("belong to the admin only", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    for (const token of [patient.token, doctor.token]) {
      expect((await api.request("GET", "/admin/closures", { token })).status).toBe(403);
      expect(
        (await api.request("POST", "/admin/closures", { token, body: { date: futureDate(4), reason: "x" } })).status,
      ).toBe(403);
      expect((await api.request("DELETE", `/admin/closures/${crypto.randomUUID()}`, { token })).status).toBe(403);
    }
    expect((await api.request("GET", "/admin/closures")).status).toBe(401);
  });

  it("over booked appointments of every doctor: 409, then cancelled with cancelAppointments and the patients told", async () => {
    const admin = await api.createAdmin();
    const [a, b] = [await api.createDoctor({ username: "Dr A" }), await api.createDoctor({ username: "Dr B" })];
    const patient = await api.createPatient({ locale: "fr" });
    const date = futureDate(35);
    const one = await book(patient, a, date, "09:00");
    const two = await book(patient, b, date, "16:00");
    const refused = await api.request("POST", "/admin/closures", {
      token: admin.token,
      body: { date, reason: "Eid al-Fitr" },
    });
    expect(refused.status).toBe(409);
    expect(
      periodConflict
        .parse(refused.body)
        .appointments.map((x) => x.id)
        .sort(),
    ).toEqual([one.id, two.id].sort());
    const before = smtp.to(patient.user.email).length;
    const made = await api.request("POST", "/admin/closures", {
      answer: createdClosure,
      token: admin.token,
      body: { date, reason: "Eid al-Fitr", cancelAppointments: true },
    });
    expect(made.status).toBe(201);
    expect(made.body.cancelled).toHaveLength(2);
    const mails = (await smtp.parsedTo(patient.user.email)).slice(before);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.text).toContain("la clinique est fermée ce jour-là");
      expect(mail.text).toContain("Eid al-Fitr");
    }
    const res = await api.request("POST", "/appointment", {
      token: patient.token,
      body: { doctorId: a.user.id, type: "online", date, time: "10:00" },
    });
    expect(res.status).toBe(409);
    expect(refusal(res).code).toBe("clinic_closed");
  });
});
