// Reminders before a confirmed appointment (docs/mail.md, Reminders), delivered through the outbox to
// a real SMTP server on 127.0.0.1: once per time before the start, whatever the number of rounds or
// instances, to each party who has reminders on. On PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL, where the concurrent rounds run on separate connections as separate instances would.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAppointment } from "./appointment/test-factories.ts";
import type { Database } from "./db/index.ts";
import { appointments } from "./db/schema.ts";
import { createMailer } from "./mail/index.ts";
import { outboxMailer } from "./mail/outbox.ts";
import { queueDueReminders, startReminderWorker } from "./reminders.ts";
import { readCalendar } from "./test/calendar.ts";
import { startApi, type TestApi, type TestPatient } from "./test/harness.ts";
import { startSmtpServer, type TestSmtpServer } from "./test/smtp.ts";

const HOUR = 3_600_000;
const HOURS = [24, 2];

let smtp: TestSmtpServer;
let api: TestApi;
const extra: Database[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startApi({ transport: createMailer({ smtpUrl: smtp.url }) });
});
afterAll(async () => {
  for (const database of extra) await database.close();
  await api.close();
  await smtp.close();
});

type Party = TestPatient;

/** A French-speaking patient, an English-speaking doctor, and their confirmed appointment `inHours` from now. */
async function confirmedIn(inHours: number) {
  const patient = await api.createPatient({ username: "Awa Mbarga", locale: "fr" });
  const doctor = await api.createDoctor({ username: "Dr Ekane" });
  // On a whole minute, as slots are (a calendar file has no milliseconds).
  const startsAt = new Date(Math.floor((Date.now() + inHours * HOUR) / 60_000) * 60_000);
  const appointment = await insertAppointment(api.db, {
    patientId: patient.user.id,
    doctorId: doctor.user.id,
    status: "confirmed",
    startsAt,
  });
  return { patient, doctor, appointment };
}

const remindersTo = async (party: Party) =>
  (await smtp.parsedTo(party.user.email)).filter((m) => /Reminder|Rappel/.test(m.subject ?? ""));

/** One round as the worker runs it, then the outbox delivered. */
async function round(now = new Date(), db = api.db) {
  const queued = await queueDueReminders(db, db === api.db ? api.deps.mailer : outboxMailer(db), HOURS, now);
  await api.deliverMail();
  return queued;
}

describe("appointment reminders", () => {
  it("reminds both parties once, each in their language, with the calendar entry, even when two instances run at the same time", async () => {
    const { patient, doctor, appointment } = await confirmedIn(1.5);
    // A second instance: its own connections on PostgreSQL, the same single owner on PGlite.
    const second = process.env.TEST_DATABASE_URL ? await api.reopen() : undefined;
    if (second) extra.push(second);
    const otherDb = second?.db ?? api.db;
    const now = new Date();
    const [a, b] = await Promise.all([
      queueDueReminders(api.db, api.deps.mailer, HOURS, now),
      queueDueReminders(otherDb, outboxMailer(otherDb), HOURS, now),
    ]);
    await api.deliverMail();
    // Both kinds (24 h and 2 h) were due at once: one mail per party, not one per kind or instance.
    expect(a + b).toBe(2);
    const [toPatient, toDoctor] = [await remindersTo(patient), await remindersTo(doctor)];
    expect(toPatient).toHaveLength(1);
    expect(toDoctor).toHaveLength(1);
    expect(toPatient[0].subject).toMatch(/^Rappel : votre rendez-vous du /);
    expect(toPatient[0].text).toContain("Nous vous rappelons votre rendez-vous avec Dr Ekane le");
    expect(toDoctor[0].subject).toMatch(/^Reminder: your appointment on /);
    expect(toDoctor[0].text).toContain("This is a reminder of your appointment with Awa Mbarga on");
    const ics = readCalendar(toDoctor[0].attachments[0].content.toString("utf8"));
    expect(ics).toMatchObject({
      method: "REQUEST",
      uid: `${appointment.id}@appointments.healthbook`,
      tzid: "Africa/Douala",
    });
    expect(ics.start.getTime()).toBe(appointment.startsAt.getTime());

    // Later rounds, as after a restart: nothing more.
    await round();
    await round(new Date(Date.now() + HOUR));
    expect(await remindersTo(patient)).toHaveLength(1);
    expect(await remindersTo(doctor)).toHaveLength(1);
  });

  it("reminds 24 hours before, then again 2 hours before, and again for a new time after a reschedule", async () => {
    const { patient, appointment } = await confirmedIn(20);
    await round();
    expect(await remindersTo(patient)).toHaveLength(1);
    await round(new Date(appointment.startsAt.getTime() - 3 * HOUR));
    expect(await remindersTo(patient)).toHaveLength(1);
    await round(new Date(appointment.startsAt.getTime() - 1.5 * HOUR));
    expect(await remindersTo(patient)).toHaveLength(2);
    await round(new Date(appointment.startsAt.getTime() - HOUR));
    expect(await remindersTo(patient)).toHaveLength(2);

    const moved = new Date(appointment.startsAt.getTime() + 24 * HOUR);
    await api.db.update(appointments).set({ startsAt: moved }).where(eq(appointments.id, appointment.id));
    await round(new Date(moved.getTime() - 1.5 * HOUR));
    expect(await remindersTo(patient)).toHaveLength(3);
  });

  it("reminds nobody of an appointment that is not confirmed, or has started", async () => {
    for (const status of ["pending", "cancelled", "completed"] as const) {
      const { patient, appointment } = await confirmedIn(1);
      await api.db.update(appointments).set({ status }).where(eq(appointments.id, appointment.id));
      await round();
      expect(await remindersTo(patient), status).toHaveLength(0);
    }
    const { patient, appointment } = await confirmedIn(1);
    await round(new Date(appointment.startsAt.getTime() + 60_000));
    expect(await remindersTo(patient)).toHaveLength(0);
  });

  it("sends none to a party who turned reminders off in their settings", async () => {
    const { patient, doctor } = await confirmedIn(1);
    expect((await api.request("PUT", "/settings", { token: patient.token, body: { reminders: false } })).status).toBe(
      200,
    );
    await round();
    expect(await remindersTo(patient)).toHaveLength(0);
    expect(await remindersTo(doctor)).toHaveLength(1);
  });

  it("is run by a worker that looks at start, and a restarted worker sends nothing again", async () => {
    const { patient } = await confirmedIn(1);
    for (let start = 0; start < 2; start++) {
      const worker = startReminderWorker({ db: api.db, mailer: api.deps.mailer, hours: HOURS, pollMs: 60_000 });
      await worker.settle();
      await worker.stop();
      await api.deliverMail();
    }
    expect(await remindersTo(patient)).toHaveLength(1);
  });
});
