// Appointment notices through the outbox to a real SMTP server on 127.0.0.1 (docs/mail.md,
// Notifications and reminders): each change reaches the other party once, in their language, as
// text and HTML, with a calendar entry that puts the slot at its clinic time and zone.
import { eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appointments, users } from "./db/schema.ts";
import { createMailer } from "./mail/index.ts";
import { readCalendar } from "./test/calendar.ts";
import { futureDate, startApi, type TestApi, type TestPatient } from "./test/harness.ts";
import { startSmtpServer, type TestSmtpServer } from "./test/smtp.ts";
import { appointment, createdProposal } from "../contract/appointment.ts";

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

type Party = TestPatient;

/** A French-speaking patient and an English-speaking doctor, with names that need escaping in HTML. */
async function parties() {
  const patient = await api.createPatient({ username: "Awa <Mbarga>", locale: "fr" });
  const doctor = await api.createDoctor({ username: "Dr Ekane & Co" });
  return { patient, doctor };
}

async function book(patient: Party, doctor: Party, days: number, time = "09:00") {
  const res = await api.request("POST", "/appointment", {
    token: patient.token,
    body: { doctorId: doctor.user.id, type: "online", date: futureDate(days), time },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; date: string };
}

/** The one mail `party` received since `before` mails; fails on none or several. */
async function onlyNewMail(party: Party, before: number): Promise<ParsedMail> {
  const mails = await smtp.parsedTo(party.user.email);
  expect(mails.length - before, `new mails to ${party.user.email}`).toBe(1);
  return mails.at(-1)!;
}
const count = (party: Party) => smtp.to(party.user.email).length;

function expectText(mail: ParsedMail, fragments: string[]) {
  for (const fragment of fragments) expect(mail.text).toContain(fragment);
  expect(mail.html).toBeTruthy();
}

const calendarOf = (mail: ParsedMail) => {
  const files = mail.attachments.filter((a) => a.filename?.endsWith(".ics"));
  expect(files).toHaveLength(1);
  expect(files[0].contentType).toBe("text/calendar");
  return readCalendar(files[0].content.toString("utf8"));
};

describe("appointment notices", () => {
  it("tells the doctor of a booking in English with an invitation at the clinic time, and not the patient", async () => {
    const { patient, doctor } = await parties();
    const [p, d] = [count(patient), count(doctor)];
    const booked = await book(patient, doctor, 5, "10:00");

    const mail = await onlyNewMail(doctor, d);
    expect(count(patient)).toBe(p);
    expect(mail.subject).toBe("New appointment request from Awa <Mbarga>");
    expectText(mail, [
      "Hello Dr Ekane & Co,",
      "Awa <Mbarga> asked for an appointment with you on",
      "from 10:00 to 11:00, West Africa Time (UTC+1)",
      "Online consultation",
    ]);
    expect(mail.html).toContain("Awa &lt;Mbarga&gt;");
    expect(mail.html).not.toContain("<Mbarga>");
    expect(mail.html).toContain('lang="en"');

    const ics = calendarOf(mail);
    expect(ics.method).toBe("REQUEST");
    expect(ics.uid).toBe(`${booked.id}@appointments.healthbook`);
    expect(ics.tzid).toBe("Africa/Douala");
    expect(ics.localStart).toBe(`${booked.date.replaceAll("-", "")}T100000`);
    expect(ics.start.toISOString()).toBe(new Date(`${booked.date}T09:00:00Z`).toISOString());
    expect(ics.status).toBe("TENTATIVE");
  });

  it("tells the patient, in French, that the doctor confirmed, then moved the appointment: the same entry, a higher sequence", async () => {
    const { patient, doctor } = await parties();
    const booked = await book(patient, doctor, 6);
    let before = count(patient);
    expect(
      (await api.request("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } }))
        .status,
    ).toBe(200);
    const confirmed = await onlyNewMail(patient, before);
    expect(confirmed.subject).toBe("Votre rendez-vous avec Dr Ekane & Co est confirmé");
    expectText(confirmed, [
      "Bonjour Awa <Mbarga>,",
      "Dr Ekane & Co a confirmé votre rendez-vous du",
      // The visit's start and end: an hour with the default plan.
      "de 09:00 à 10:00, heure d’Afrique de l’Ouest (UTC+1)",
    ]);
    expect(confirmed.html).toContain('lang="fr"');
    const first = calendarOf(confirmed);
    expect(first).toMatchObject({
      method: "REQUEST",
      status: "CONFIRMED",
      tzid: "Africa/Douala",
      uid: `${booked.id}@appointments.healthbook`,
    });

    // The change comes an hour later than the booking: its sequence must say it is newer.
    await api.db
      .update(appointments)
      .set({ createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(appointments.id, booked.id));
    before = count(patient);
    const moved = futureDate(7);
    expect(
      (
        await api.request("PUT", `/appointment/${booked.id}`, {
          token: doctor.token,
          body: { date: moved, time: "15:00" },
        })
      ).status,
    ).toBe(200);
    const mail = await onlyNewMail(patient, before);
    expect(mail.subject).toBe("Votre rendez-vous avec Dr Ekane & Co a été déplacé");
    expectText(mail, ["a déplacé votre rendez-vous au", "de 15:00 à 16:00", "Il était prévu le", "à 09:00"]);
    const second = calendarOf(mail);
    expect(second.uid).toBe(first.uid);
    expect(second.sequence).toBeGreaterThan(first.sequence);
    expect(second.localStart).toBe(`${moved.replaceAll("-", "")}T150000`);
  });

  it("sends a cancellation that removes the entry: to the patient when the doctor cancels, to the doctor when the patient does", async () => {
    const { patient, doctor } = await parties();
    const byDoctor = await book(patient, doctor, 8);
    let before = count(patient);
    expect(
      (await api.request("PUT", `/appointment/${byDoctor.id}`, { token: doctor.token, body: { status: "cancelled" } }))
        .status,
    ).toBe(200);
    const toPatient = await onlyNewMail(patient, before);
    expect(toPatient.subject).toBe("Dr Ekane & Co a annulé votre rendez-vous");
    expect(calendarOf(toPatient)).toMatchObject({
      method: "CANCEL",
      status: "CANCELLED",
      uid: `${byDoctor.id}@appointments.healthbook`,
    });

    const byPatient = await book(patient, doctor, 9);
    before = count(doctor);
    expect(
      (
        await api.request("PATCH", `/appointment/${byPatient.id}`, {
          token: patient.token,
          body: { status: "cancelled" },
        })
      ).status,
    ).toBe(200);
    const toDoctor = await onlyNewMail(doctor, before);
    expect(toDoctor.subject).toBe("Awa <Mbarga> cancelled their appointment");
    expect(calendarOf(toDoctor)).toMatchObject({
      method: "CANCEL",
      status: "CANCELLED",
      uid: `${byPatient.id}@appointments.healthbook`,
    });
  });

  it("tells the patient of a proposal (nothing to add to a calendar yet), and the doctor when it is accepted", async () => {
    const { patient, doctor } = await parties();
    const ref = await api.reference();
    const request = await api.request("POST", "/appointment", {
      answer: appointment,
      token: patient.token,
      body: {
        category: "random",
        specialityId: ref.speciality("General practice").id,
        type: "online",
        date: futureDate(10),
        time: "11:00",
      },
    });
    expect(request.status).toBe(201);
    const [p, d] = [count(patient), count(doctor)];
    const proposed = await api.request("POST", "/appointment-proposal", {
      answer: createdProposal,
      token: doctor.token,
      body: { appointmentId: request.body.id },
    });
    expect(proposed.status).toBe(201);
    const proposal = await onlyNewMail(patient, p);
    expect(proposal.subject).toBe("Dr Ekane & Co propose de prendre votre demande");
    expectText(proposal, ["Dr Ekane & Co propose de vous recevoir le", "à 11:00"]);
    expect(proposal.attachments).toHaveLength(0);
    expect(count(doctor)).toBe(d);

    expect(
      (await api.request("PATCH", `/appointment-proposal/${proposed.body.id}/accept`, { token: patient.token })).status,
    ).toBe(200);
    const accepted = await onlyNewMail(doctor, d);
    expect(accepted.subject).toBe("Awa <Mbarga> accepted your proposal");
    expect(calendarOf(accepted)).toMatchObject({
      method: "REQUEST",
      status: "CONFIRMED",
      uid: `${request.body.id}@appointments.healthbook`,
    });
    expect(count(patient)).toBe(p + 1);
  });

  it("writes in the language the user last chose, and sends nothing to someone who turned notices off", async () => {
    const { patient, doctor } = await parties();
    expect((await api.request("PUT", "/settings", { token: doctor.token, body: { language: "fr" } })).status).toBe(200);
    let before = count(doctor);
    const first = await book(patient, doctor, 11);
    expect((await onlyNewMail(doctor, before)).subject).toBe("Nouvelle demande de rendez-vous de Awa <Mbarga>");

    expect(
      (await api.request("PUT", "/settings", { token: patient.token, body: { notifications: false } })).status,
    ).toBe(200);
    before = count(patient);
    expect(
      (await api.request("PUT", `/appointment/${first.id}`, { token: doctor.token, body: { status: "confirmed" } }))
        .status,
    ).toBe(200);
    expect(count(patient)).toBe(before);
  });

  it("leaves the change and its notice together: a refused change queues no mail", async () => {
    const { patient, doctor } = await parties();
    await book(patient, doctor, 12, "14:00");
    const other = await api.createPatient();
    const before = count(doctor);
    // The slot is taken: 409, and the doctor hears of nothing.
    const res = await api.request("POST", "/appointment", {
      token: other.token,
      body: { doctorId: doctor.user.id, type: "online", date: futureDate(12), time: "14:00" },
    });
    expect(res.status).toBe(409);
    expect(count(doctor)).toBe(before);
  });

  it("mails nobody whose account is deleted", async () => {
    const { patient, doctor } = await parties();
    const booked = await book(patient, doctor, 13);
    await api.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, patient.user.id));
    const before = count(patient);
    expect(
      (await api.request("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "cancelled" } }))
        .status,
    ).toBe(200);
    expect(count(patient)).toBe(before);
  });
});

describe("PUT /settings", () => {
  it("answers the user's own settings and refuses what is not a setting", async () => {
    const { patient } = await parties();
    expect((await api.request("GET", "/settings", { token: patient.token })).body).toEqual({
      email: patient.user.email,
      language: "fr",
      notifications: true,
      reminders: true,
      phone: patient.user.phone,
      phoneVerified: false,
      sms: false,
      smsAvailable: true,
    });
    const changed = await api.request("PUT", "/settings", {
      token: patient.token,
      body: { reminders: false, language: "en" },
    });
    expect(changed).toMatchObject({ status: 200, body: { language: "en", notifications: true, reminders: false } });
    for (const body of [{ language: "de" }, { reminders: "no" }, { role: "admin" }, {}]) {
      expect((await api.request("PUT", "/settings", { token: patient.token, body })).status).toBe(400);
    }
    expect((await api.request("PUT", "/settings", { body: { reminders: false } })).status).toBe(401);
    expect((await api.request("GET", "/settings")).status).toBe(401);
  });
});
