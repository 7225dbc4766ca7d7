// Text messages over SMPP (docs/sms.md) against a real SMPP gateway on 127.0.0.1 (api/test/smpp.ts,
// the `smpp` package's server): the phone's verification by a code, the notices and reminders a
// patient gets when they turned SMS on, and the outbox's promises (retried while the gateway is
// away, sent once across a restart and between two workers, a refused bind logged without the
// password). On PGlite and, with TEST_DATABASE_URL, on PostgreSQL, where the second worker runs on
// its own connections as another instance would.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { insertAppointment } from "../appointment/test-factories.ts";
import type { Database } from "../db/index.ts";
import { oneTimeCodes, smsOutbox, users } from "../db/schema.ts";
import { rowsOf } from "../query.ts";
import { openScratchDatabase } from "../test/scratch-database.ts";
import { queueDueReminders } from "../reminders.ts";
import { refusal, startApi, type TestApi, type TestPatient } from "../test/harness.ts";
import { codeIn, type SmppServer, startSmppServer } from "../test/smpp.ts";
import { startApiWithGateway } from "../test/api-with-gateway.ts";
import { expectFrenchConfirmation, inADay, pendingWithCardiologist } from "./test-notices.ts";
import { mailSettings } from "../../contract/settings.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import client from "prom-client";
import { consoleSender, DAILY_NOTICES, queueNoticeSms, queueNoticesSms, startSmsWorker } from "./outbox.ts";
import { watchSmsOutbox } from "./outbox-metrics.ts";
import { SMPP_TIMEOUTS, type SmsSender, smppSender } from "./smpp.ts";
import { septets } from "./texts.ts";
import { clinicParts } from "../time.ts";

let gateway: SmppServer;
let api: TestApi;
const closeLater: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ({ api, gateway } = await startApiWithGateway());
});
afterAll(async () => {
  await api.close();
  await gateway.stop();
});
afterEach(() => vi.restoreAllMocks());

let numbers = 0;
/** A Cameroonian mobile number of its own for each patient (E.164). */
const newNumber = () => `+2376700${String(10_000 + ++numbers * 7 + Math.floor(Math.random() * 5)).slice(-5)}`;

// Each patient from an address of their own: the per-address limits of the code routes are
// tested apart (the harness's API believes X-Forwarded-For from loopback, as from its web tier).
const addresses = new Map<string, string>();
const from = (p: { token: string }) => {
  if (!addresses.has(p.token))
    addresses.set(p.token, `10.25.${Math.floor(addresses.size / 250)}.${(addresses.size % 250) + 1}`);
  return { "x-forwarded-for": addresses.get(p.token)! };
};

async function patientWithPhone(values: Partial<typeof users.$inferInsert> = {}) {
  return api.createPatient({ phone: newNumber(), ...values });
}

const settings = (p: TestPatient) => api.request("GET", "/settings", { token: p.token, answer: mailSettings });

/** Verifies `p`'s phone through the API with the code the gateway received, and turns SMS on. */
async function verifyAndTurnOn(p: TestPatient) {
  expect((await api.request("POST", "/settings/phone/code", { token: p.token, headers: from(p) })).status).toBe(200);
  const [sms] = await gateway.waitFor(p.user.phone!);
  expect(
    (
      await api.request("POST", "/settings/phone/verify", {
        token: p.token,
        headers: from(p),
        body: { otpCode: codeIn(sms) },
      })
    ).status,
  ).toBe(200);
  expect((await api.request("PUT", "/settings", { token: p.token, body: { sms: true } })).status).toBe(200);
}

/** A confirmed-by-the-doctor flow: a pending appointment the doctor confirms through the API. */
async function confirmBooking(patient: TestPatient) {
  const { doctor, appointment } = await pendingWithCardiologist(api.db, patient.user.id);
  const res = await api.request("PUT", `/appointment/${appointment.id}`, {
    token: doctor.token,
    body: { status: "confirmed" },
  });
  expect(res.status).toBe(200);
  return appointment;
}

const rowsTo = (phone: string) => api.db.select().from(smsOutbox).where(eq(smsOutbox.recipient, phone));

describe("verifying the phone", () => {
  it("sends a 6-digit code by SMS that verifies the phone, then lets SMS be turned on; the code is neither logged nor kept", async () => {
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const)
      vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args.join(" ")));
    const patient = await patientWithPhone();
    const before = await settings(patient);
    expect(before.body).toMatchObject({
      phone: patient.user.phone,
      phoneVerified: false,
      sms: false,
      smsAvailable: true,
    });

    // SMS on is refused until the phone is verified.
    const early = await api.request("PUT", "/settings", { token: patient.token, body: { sms: true } });
    expect(early.status).toBe(409);
    expect(refusal(early).code).toBe("phone_unverified");

    expect(
      (await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) })).status,
    ).toBe(200);
    const [sms] = await gateway.waitFor(patient.user.phone!);
    const code = codeIn(sms)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(sms.from).toBe("HealthBook");
    expect(sms.dataCoding).toBe(0);

    const wrong = await api.request("POST", "/settings/phone/verify", {
      token: patient.token,
      headers: from(patient),
      body: { otpCode: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(refusal(wrong).code).toBe("invalid_code");
    // Another user cannot use it.
    const other = await patientWithPhone();
    const stolen = await api.request("POST", "/settings/phone/verify", {
      token: other.token,
      headers: from(other),
      body: { otpCode: code },
    });
    expect(refusal(stolen).code).toBe("invalid_code");

    const verified = await api.request("POST", "/settings/phone/verify", {
      token: patient.token,
      headers: from(patient),
      body: { otpCode: code },
      answer: mailSettings,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ phoneVerified: true, sms: false });
    const on = await api.request("PUT", "/settings", {
      token: patient.token,
      body: { sms: true },
      answer: mailSettings,
    });
    expect(on.body).toMatchObject({ phoneVerified: true, sms: true });

    // Used once.
    expect(
      refusal(
        await api.request("POST", "/settings/phone/verify", {
          token: patient.token,
          headers: from(patient),
          body: { otpCode: code },
        }),
      ).code,
    ).toBe("invalid_code");
    const [row] = await rowsTo(patient.user.phone!);
    expect(row).toMatchObject({ kind: "code", text: null, messageId: sms.messageId });
    expect(logged.join("\n")).not.toContain(code);
  });

  it("answers resend_too_soon within the minute", async () => {
    const patient = await patientWithPhone();
    expect(
      (await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) })).status,
    ).toBe(200);
    const again = await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) });
    expect(again.status).toBe(429);
    expect(refusal(again).code).toBe("resend_too_soon");
    await gateway.waitFor(patient.user.phone!);
    expect(gateway.received.filter((m) => m.to === patient.user.phone!.slice(1))).toHaveLength(1);
  });

  it("sends at most 10 codes per client address in 15 minutes and 5 per number in an hour", async () => {
    const shared = { "x-forwarded-for": "10.99.0.1" };
    const answers = [];
    for (let i = 0; i < 11; i++) {
      const p = await patientWithPhone();
      answers.push((await api.request("POST", "/settings/phone/code", { token: p.token, headers: shared })).status);
    }
    expect(answers).toEqual([...Array(10).fill(200), 429]);

    const number = newNumber();
    const sameNumber = [];
    for (let i = 0; i < 6; i++) {
      const p = await api.createPatient({ phone: number });
      const res = await api.request("POST", "/settings/phone/code", { token: p.token, headers: from(p) });
      sameNumber.push(res.status === 429 ? refusal(res).code : res.status);
    }
    expect(sameNumber).toEqual([200, 200, 200, 200, 200, "rate_limited"]);
    await gateway.waitFor(number, 5);
  });

  it("kills the code after 5 wrong tries", async () => {
    const patient = await patientWithPhone();
    await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) });
    const code = codeIn((await gateway.waitFor(patient.user.phone!))[0])!;
    const wrongCode = code === "999999" ? "888888" : "999999";
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        refusal(
          await api.request("POST", "/settings/phone/verify", {
            token: patient.token,
            headers: from(patient),
            body: { otpCode: wrongCode },
          }),
        ).code,
      );
    expect(answers).toEqual(["invalid_code", "invalid_code", "invalid_code", "invalid_code", "too_many_attempts"]);
    expect(
      refusal(
        await api.request("POST", "/settings/phone/verify", {
          token: patient.token,
          headers: from(patient),
          body: { otpCode: code },
        }),
      ).code,
    ).toBe("too_many_attempts");
  });

  it("refuses without a phone, without a session, and with a malformed code", async () => {
    const none = await api.createPatient({ phone: null });
    const res = await api.request("POST", "/settings/phone/code", { token: none.token, headers: from(none) });
    expect(res.status).toBe(409);
    expect(refusal(res).code).toBe("phone_missing");
    expect((await api.request("POST", "/settings/phone/code")).status).toBe(401);
    const patient = await patientWithPhone();
    for (const otpCode of ["12345", "abcdef", "1234567", 123456, "<script>"]) {
      expect(
        (
          await api.request("POST", "/settings/phone/verify", {
            token: patient.token,
            headers: from(patient),
            body: { otpCode },
          })
        ).status,
      ).toBe(400);
    }
    expect((await api.request("PUT", "/settings", { token: patient.token, body: { sms: "yes" } })).status).toBe(400);
  });

  it("changing the phone number unverifies it and turns SMS off", async () => {
    const patient = await patientWithPhone();
    await verifyAndTurnOn(patient);
    // Keeping the same number changes nothing.
    await api.request("PUT", "/patient/me", { token: patient.token, body: { phone: patient.user.phone } });
    expect((await settings(patient)).body).toMatchObject({ phoneVerified: true, sms: true });

    const newPhone = newNumber();
    const changed = await api.request("PUT", "/patient/me", { token: patient.token, body: { phone: newPhone } });
    expect(changed.status).toBe(200);
    expect((await settings(patient)).body).toMatchObject({ phone: newPhone, phoneVerified: false, sms: false });
  });

  it("a code sent to one number does not verify the number that replaced it", async () => {
    const patient = await patientWithPhone();
    await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) });
    const code = codeIn((await gateway.waitFor(patient.user.phone!))[0])!;
    await api.request("PUT", "/patient/me", { token: patient.token, body: { phone: newNumber() } });
    const res = await api.request("POST", "/settings/phone/verify", {
      token: patient.token,
      headers: from(patient),
      body: { otpCode: code },
    });
    expect(refusal(res).code).toBe("invalid_code");
    expect((await settings(patient)).body.phoneVerified).toBe(false);
  });
});

describe("notices and reminders by SMS", () => {
  it("a booking confirmed by the doctor reaches a French-speaking patient as one GSM-7 SMS of at most 160 characters with the date, time and link", async () => {
    const patient = await patientWithPhone({ locale: "fr", username: "Awa Mbarga" });
    await verifyAndTurnOn(patient);
    const appointment = await confirmBooking(patient);
    const [, notice] = await gateway.waitFor(patient.user.phone!, 2);
    expectFrenchConfirmation(notice, appointment);
    // The gateway's receipt is kept on the row.
    await vi.waitFor(async () => {
      const rows = await rowsTo(patient.user.phone!);
      expect(rows.find((r) => r.kind === "notice")).toMatchObject({
        messageId: notice.messageId,
        deliveryStatus: "DELIVRD",
      });
    });
  });

  it("an absence that cancels a confirmed appointment texts its patient, in their language", async () => {
    const patient = await patientWithPhone({ locale: "en" });
    await verifyAndTurnOn(patient);
    const doctor = await api.createDoctor();
    const appointment = await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
    });
    const day = clinicParts(appointment.startsAt).date;
    const res = await api.request("POST", "/doctor/absences", {
      token: doctor.token,
      body: { from: day, to: day, reason: "Conference", cancelAppointments: true },
    });
    expect(res.status).toBe(201);
    const [, notice] = await gateway.waitFor(patient.user.phone!, 2);
    expect(notice.text).toMatch(/^HealthBook: your appointment on .* is cancelled\./);
    // The reason is the mail's: the SMS says no more than the doctor's own cancellation.
    expect(notice.text).not.toContain("Conference");
  });

  it("sends none to a patient with SMS off, nor to one whose phone is not verified", async () => {
    const off = await patientWithPhone();
    await verifyAndTurnOn(off);
    await api.request("PUT", "/settings", { token: off.token, body: { sms: false } });
    const unverified = await patientWithPhone({ sms: true, phoneVerified: false });
    await confirmBooking(off);
    await confirmBooking(unverified);
    await api.smsWorker!.drain();
    expect((await rowsTo(off.user.phone!)).filter((r) => r.kind === "notice")).toHaveLength(0);
    expect(await rowsTo(unverified.user.phone!)).toHaveLength(0);
    // Mail still goes as the user chose.
    expect(api.mailer.messages.filter((m) => m.to === off.user.email)).not.toHaveLength(0);
  });

  it("reminds a patient with SMS on once, and keeps to 10 notices a day", async () => {
    const patient = await patientWithPhone({ locale: "en" });
    await verifyAndTurnOn(patient);
    const doctor = await api.createDoctor();
    const startsAt = new Date(Math.floor((Date.now() + 1.5 * 3_600_000) / 60_000) * 60_000);
    await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt,
    });
    await queueDueReminders(api.db, api.deps.mailer, [24, 2]);
    await queueDueReminders(api.db, api.deps.mailer, [24, 2]);
    const [, reminder] = await gateway.waitFor(patient.user.phone!, 2);
    expect(reminder.text).toMatch(/^HealthBook reminder: your appointment on /);
    expect(septets(reminder.text)).toBeLessThanOrEqual(160);

    const queued = [];
    for (let i = 0; i < DAILY_NOTICES + 2; i++)
      queued.push(
        await api.db.transaction((tx) =>
          queueNoticeSms(tx, { userId: patient.user.id, text: `notice ${i}`, expiresAt: inADay() }),
        ),
      );
    // One notice (the reminder) was already sent today.
    expect(queued.filter(Boolean)).toHaveLength(DAILY_NOTICES - 1);
  });
});

describe("the outbox and the gateway", () => {
  // An API of its own whose harness runs no SMS worker: each test starts the workers it needs.
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());
  // Each test's workers and gateways stop with it: a worker left running would send the next test's rows.
  afterEach(async () => {
    for (const c of closeLater.splice(0).reverse()) await c.close();
  });

  /** A patient with SMS on for a verified phone, and a notice queued for them. */
  async function queuedNotice(text: string) {
    const patient = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: true });
    expect(
      await api.db.transaction((tx) => queueNoticeSms(tx, { userId: patient.user.id, text, expiresAt: inADay() })),
    ).toBe(true);
    return patient;
  }

  /** Messages sent in the last hour, this file's included: each counts against the hourly ceiling. */
  async function sentLastHour() {
    return (await api.db.select().from(smsOutbox)).filter(
      (r) => r.sentAt && Date.now() - r.sentAt.getTime() < 3_600_000,
    ).length;
  }

  /** A second instance's database handle: its own connections on PostgreSQL, the one owner on PGlite. */
  async function otherInstanceDb() {
    if (!process.env.TEST_DATABASE_URL) return api.db;
    const second: Database = await api.reopen();
    closeLater.push(second);
    return second.db;
  }

  it("keeps a notice while the gateway is away, retries it, and delivers it exactly once after it comes back, across a restart", async () => {
    // A database of its own, on disk (PGlite) or its own PostgreSQL database, closed and opened again
    // as the app's is when it restarts.
    const dataDir = process.env.TEST_DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "sms-restart-"));
    const scratch = await openScratchDatabase({
      serverUrl: process.env.TEST_DATABASE_URL,
      dataDir,
      prefix: "sms",
      template: inject("databaseTemplate"),
    });
    const phone = newNumber();
    const [user] = await scratch.db
      .insert(users)
      .values({
        email: `restart-${Date.now()}@example.test`,
        username: "Restart",
        passwordHash: "x",
        phone,
        phoneVerified: true,
        sms: true,
      })
      .returning();
    expect(
      await scratch.db.transaction((tx) =>
        queueNoticeSms(tx, { userId: user.id, text: "gateway away", expiresAt: inADay() }),
      ),
    ).toBe(true);

    const away = await startSmppServer();
    await away.stop();
    const sender = () => smppSender({ url: away.url(), from: "HealthBook", rebindMs: 50, log: () => {} });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const first = startSmsWorker({
      db: scratch.db,
      sender: sender(),
      maxPerHour: 1000,
      pollMs: 50,
      backoffMs: () => 100,
    });
    const row = async (db = scratch.db) => (await db.select().from(smsOutbox).where(eq(smsOutbox.recipient, phone)))[0];
    await vi.waitFor(async () => expect((await row()).attempts).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    expect(await row()).toMatchObject({
      sentAt: null,
      lastError: expect.stringMatching(/cannot reach the SMPP gateway/),
    });

    // The app stops: its worker, then its database. The gateway comes back; the app starts again.
    await first.stop();
    await scratch.close();
    await away.start();
    const after = await scratch.reopen();
    const second = startSmsWorker({
      db: after.db,
      sender: sender(),
      maxPerHour: 1000,
      pollMs: 50,
      backoffMs: () => 100,
    });
    try {
      await away.waitFor(phone);
      await new Promise((r) => setTimeout(r, 500));
      await second.drain();
      expect(away.received.filter((m) => m.text === "gateway away")).toHaveLength(1);
      const sent = await row(after.db);
      expect(sent.messageId).toBe(away.received[0].messageId);
      expect(sent.sentAt).not.toBeNull();
    } finally {
      await second.stop();
      await after.close();
      await scratch.drop();
      await away.stop();
    }
  });

  it("two workers never send the same message", async () => {
    const shared = await startSmppServer();
    closeLater.push({ close: shared.stop });
    const patients = [];
    for (let i = 0; i < 12; i++) patients.push(await queuedNotice(`shared ${i}`));
    const workers = [api.db, await otherInstanceDb()].map((db) =>
      startSmsWorker({
        db,
        sender: smppSender({ url: shared.url(), from: "HealthBook" }),
        maxPerHour: 1000,
        pollMs: 20,
      }),
    );
    for (const w of workers) closeLater.push({ close: w.stop });
    await vi.waitFor(() => expect(shared.received.length).toBeGreaterThanOrEqual(12), { timeout: 10_000 });
    await Promise.all(workers.map((w) => w.drain()));
    const texts = shared.received
      .map((m) => m.text)
      .filter((t) => t.startsWith("shared"))
      .sort();
    expect(texts).toEqual([...new Set(texts)]);
    expect(texts).toHaveLength(12);
  });

  // Several instances share one PostgreSQL server; the embedded database has one owner (ADR 0006).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "sends each of 40 messages once from two instances behind a gateway that answers after 25 s",
    async () => {
      // Time runs 25 times faster here than in production: the gateway answers submit_sm after 1 s
      // (25 s), the sender waits what it waits in production, scaled (SMPP_TIMEOUTS), and the lease is
      // the one the worker makes of those waits, as in production.
      const scale = 25;
      const slow = await startSmppServer({ answerAfterMs: 25_000 / scale });
      closeLater.push({ close: slow.stop });
      const texts = [];
      for (let i = 0; i < 40; i++) {
        texts.push(`slow gateway ${i}`);
        await queuedNotice(texts[i]);
      }
      const workers = [api.db, await otherInstanceDb()].map((db) =>
        startSmsWorker({
          db,
          sender: smppSender({
            url: slow.url(),
            from: "HealthBook",
            answerMs: SMPP_TIMEOUTS.answerMs / scale,
            submitMs: SMPP_TIMEOUTS.submitMs / scale,
          }),
          maxPerHour: 1000,
          pollMs: 20,
        }),
      );
      for (const w of workers) closeLater.push({ close: w.stop });
      const unsent = async () =>
        (await api.db.select().from(smsOutbox)).filter((r) => r.text?.startsWith("slow gateway") && !r.sentAt);
      await vi.waitFor(async () => expect(await unsent()).toEqual([]), { timeout: 60_000, interval: 200 });
      await Promise.all(workers.map((w) => w.drain()));
      const received = slow.received.map((m) => m.text).filter((t) => t.startsWith("slow gateway"));
      expect(received.sort()).toEqual(texts.sort());
    },
    120_000,
  );

  it("logs a refused bind without the password and binds again once the gateway accepts", async () => {
    const strict = await startSmppServer({ password: "t0p-s3cret-pw" });
    closeLater.push({ close: strict.stop });
    strict.refuseBinds(true);
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args.join(" ")));
    const patient = await queuedNotice("after refusal");
    const worker = startSmsWorker({
      db: api.db,
      sender: smppSender({ url: strict.url("t0p-s3cret-pw"), from: "HealthBook", rebindMs: 50 }),
      maxPerHour: 1000,
      pollMs: 50,
      backoffMs: () => 100,
      maxAttempts: 1000,
    });
    closeLater.push({ close: worker.stop });
    await vi.waitFor(() => expect(strict.refusedBinds).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    expect(lines.join("\n")).toMatch(/refused the bind of clinic \(ESME_RINVPASWD\)/);
    strict.refuseBinds(false);
    await strict.waitFor(patient.user.phone!);
    expect(lines.join("\n")).not.toContain("t0p-s3cret-pw");
    expect(lines.join("\n")).not.toContain("after refusal");
  });

  it("keeps to the hourly ceiling: the rest wait", async () => {
    const capped = await startSmppServer();
    closeLater.push({ close: capped.stop });
    // Room for two more.
    const sent = await sentLastHour();
    for (let i = 0; i < 3; i++) await queuedNotice(`capped ${i}`);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const worker = startSmsWorker({
      db: api.db,
      sender: smppSender({ url: capped.url(), from: "HealthBook" }),
      maxPerHour: sent + 2,
      pollMs: 50,
    });
    closeLater.push({ close: worker.stop });
    await vi.waitFor(() => expect(capped.received.length).toBe(2), { timeout: 5000 });
    await worker.drain();
    expect(capped.received).toHaveLength(2);
    const waiting = (await api.db.select().from(smsOutbox)).filter((r) => r.text?.startsWith("capped") && !r.sentAt);
    expect(waiting).toHaveLength(1);
  });

  it("two instances claiming at once share the hourly ceiling: together they send no more than it leaves", async () => {
    const capped = await startSmppServer();
    closeLater.push({ close: capped.stop });
    const room = 3;
    const ceiling = (await sentLastHour()) + room;
    for (let i = 0; i < 6; i++) await queuedNotice(`shared ceiling ${i}`);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // Each send takes a moment, so both instances claim before either has sent anything.
    const slowSender = (): SmsSender => {
      const real = smppSender({ url: capped.url(), from: "HealthBook" });
      return {
        send: async (message) => {
          await new Promise((r) => setTimeout(r, 300));
          return real.send(message);
        },
        close: () => real.close(),
        worstCaseMs: real.worstCaseMs + 300,
      };
    };
    const workers = [api.db, await otherInstanceDb()].map((db) =>
      startSmsWorker({ db, sender: slowSender(), maxPerHour: ceiling, pollMs: 20 }),
    );
    for (const w of workers) closeLater.push({ close: w.stop });
    await vi.waitFor(() => expect(capped.received.length).toBeGreaterThanOrEqual(room), { timeout: 5000 });
    // Several more rounds of both: still nothing past the ceiling.
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all(workers.map((w) => w.drain()));
    expect(capped.received).toHaveLength(room);
  });

  /** This API's outbox rows to `phone` (rowsTo reads the other API's). */
  const outboxTo = (phone: string) => api.db.select().from(smsOutbox).where(eq(smsOutbox.recipient, phone));

  /** Asks for a phone code through the API: `patient`'s code is then queued, not sent. */
  async function requestCode(patient: TestPatient) {
    expect(
      (await api.request("POST", "/settings/phone/code", { token: patient.token, headers: from(patient) })).status,
    ).toBe(200);
  }

  it("sends a code before the notices queued earlier", async () => {
    const gateway = await startSmppServer();
    closeLater.push({ close: gateway.stop });
    for (let i = 0; i < 3; i++) await queuedNotice(`before the code ${i}`);
    const patient = await api.createPatient({ phone: newNumber() });
    await requestCode(patient);
    const worker = startSmsWorker({
      db: api.db,
      sender: smppSender({ url: gateway.url(), from: "HealthBook" }),
      maxPerHour: 1000,
      pollMs: 50,
    });
    closeLater.push({ close: worker.stop });
    await vi.waitFor(() => expect(gateway.received.length).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    const mine = gateway.received.filter((m) => m.text.startsWith("before the code") || codeIn(m));
    expect(mine[0].to).toBe(patient.user.phone!.slice(1));
    expect(codeIn(mine[0])).toMatch(/^\d{6}$/);
  });

  it("sends a code at the hourly ceiling, where notices wait", async () => {
    const gateway = await startSmppServer();
    closeLater.push({ close: gateway.stop });
    await queuedNotice("held by the ceiling");
    const patient = await api.createPatient({ phone: newNumber() });
    await requestCode(patient);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const worker = startSmsWorker({
      db: api.db,
      sender: smppSender({ url: gateway.url(), from: "HealthBook" }),
      // No room left in the hour.
      maxPerHour: await sentLastHour(),
      pollMs: 50,
    });
    closeLater.push({ close: worker.stop });
    const [code] = await gateway.waitFor(patient.user.phone!);
    expect(codeIn(code)).toMatch(/^\d{6}$/);
    await worker.drain();
    expect(gateway.received).toHaveLength(1);
  });

  it("drops, unsent and marked expired, a reminder whose appointment started and a code past its validity", async () => {
    const gateway = await startSmppServer();
    closeLater.push({ close: gateway.stop });
    // A reminder queued 2 hours before an appointment that started an hour ago: the outbox was
    // held since (a gateway away, the ceiling reached).
    const patient = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: true });
    const doctor = await api.createDoctor();
    const startsAt = new Date(Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000);
    await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt,
    });
    await queueDueReminders(api.db, api.deps.mailer, [2], new Date(startsAt.getTime() - 2 * 3_600_000));
    expect((await outboxTo(patient.user.phone!)).map((r) => r.kind)).toEqual(["notice"]);
    // A code valid as long as the code itself, queued 11 minutes ago.
    const asker = await api.createPatient({ phone: newNumber() });
    await requestCode(asker);
    const [queued] = await outboxTo(asker.user.phone!);
    const [code] = await api.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, asker.user.id), eq(oneTimeCodes.purpose, "phone")));
    expect(queued.expiresAt).toEqual(code.expiresAt);
    const earlier = sql`interval '11 minutes'`;
    await api.db
      .update(smsOutbox)
      .set({
        createdAt: sql`${smsOutbox.createdAt} - ${earlier}`,
        dueAt: sql`${smsOutbox.dueAt} - ${earlier}`,
        expiresAt: sql`${smsOutbox.expiresAt} - ${earlier}`,
      })
      .where(eq(smsOutbox.id, queued.id));

    const worker = startSmsWorker({
      db: api.db,
      sender: smppSender({ url: gateway.url(), from: "HealthBook" }),
      maxPerHour: 1000,
      pollMs: 50,
    });
    closeLater.push({ close: worker.stop });
    await worker.drain();
    const phones = [patient.user.phone!, asker.user.phone!].map((p) => p.slice(1));
    expect(gateway.received.filter((m) => phones.includes(m.to))).toEqual([]);
    const rows = [...(await outboxTo(patient.user.phone!)), ...(await outboxTo(asker.user.phone!))];
    expect(rows.map((r) => [r.kind, r.dropped, r.sentAt, r.failedAt === null])).toEqual([
      ["notice", "expired", null, false],
      ["code", "expired", null, false],
    ]);
    // A code's text goes, sent or not.
    expect(rows[1].text).toBeNull();
    watchSmsOutbox(api.db);
    const dropped = (await client.register.metrics()).match(/^sms_outbox_messages\{state="dropped"\} (\d+)$/m);
    expect(Number(dropped?.[1])).toBeGreaterThanOrEqual(2);
  });

  it("queues a set of notices at once, each user's up to the day's limit, none for a user with SMS off", async () => {
    const busy = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: true });
    const quiet = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: true });
    const off = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: false });
    const notices = [busy, quiet, off].flatMap((p, n) =>
      Array.from({ length: n === 0 ? DAILY_NOTICES + 2 : 1 }, (_, i) => ({
        userId: p.user.id,
        text: `set ${n} ${i}`,
        expiresAt: inADay(),
      })),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const texted = await api.db.transaction((tx) => queueNoticesSms(tx, notices));
    expect([...texted].sort()).toEqual([busy.user.id, quiet.user.id].sort());
    const rows = await api.db.select().from(smsOutbox).orderBy(smsOutbox.id);
    const of = (p: TestPatient) => rows.filter((r) => r.userId === p.user.id).map((r) => r.text);
    // The first ones, in the order given.
    expect(of(busy)).toEqual(notices.slice(0, DAILY_NOTICES).map((n) => n.text));
    expect(of(quiet)).toEqual(["set 1 0"]);
    expect(of(off)).toEqual([]);
  });

  // Two transactions at once need two connections: PostgreSQL's (PGlite runs one at a time).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "counts a user's notices of the day and queues under one lock: two transactions at once queue no more than the limit",
    async () => {
      const patient = await api.createPatient({ phone: newNumber(), phoneVerified: true, sms: true });
      const notice = (text: string) => ({ userId: patient.user.id, text, expiresAt: inADay() });
      for (let i = 0; i < DAILY_NOTICES - 1; i++)
        expect(await api.db.transaction((tx) => queueNoticeSms(tx, notice(`day ${i}`)))).toBe(true);
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const other = await otherInstanceDb();
      let second: Promise<boolean> | undefined;
      let secondDone = false;
      await api.db.transaction(async (tx) => {
        expect(await queueNoticeSms(tx, notice("the last of the day"))).toBe(true);
        // Another instance queues one more for the same user before this transaction commits.
        second = other
          .transaction((tx2) => queueNoticeSms(tx2, notice("one too many")))
          .finally(() => {
            secondDone = true;
          });
        // Commits once the other has queued, or waits for this transaction's lock.
        await vi.waitFor(
          async () => {
            if (secondDone) return;
            const [{ waiting }] = rowsOf<{ waiting: number }>(
              await api.db.execute(sql`
                select count(*)::int as waiting from pg_locks
                where locktype = 'advisory' and not granted
                  and database = (select oid from pg_database where datname = current_database())`),
            );
            expect(waiting).toBeGreaterThan(0);
          },
          { timeout: 10_000 },
        );
      });
      expect(await second).toBe(false);
      const notices = (await api.db.select().from(smsOutbox)).filter(
        (r) => r.userId === patient.user.id && r.kind === "notice",
      );
      expect(notices).toHaveLength(DAILY_NOTICES);
    },
  );

  it("deleting an account erases its numbers and texts from the outbox at once, and what was not sent is not sent", async () => {
    const gateway = await startSmppServer();
    closeLater.push({ close: gateway.stop });
    const patient = await queuedNotice("sent before the deletion");
    const phone = patient.user.phone!;
    const sender = () => smppSender({ url: gateway.url(), from: "HealthBook" });
    const first = startSmsWorker({ db: api.db, sender: sender(), maxPerHour: 1000, pollMs: 50 });
    const [sent] = await gateway.waitFor(phone);
    await first.drain();
    await first.stop();
    // A code and a notice still waiting when the account goes.
    await requestCode(patient);
    expect(
      await api.db.transaction((tx) =>
        queueNoticeSms(tx, { userId: patient.user.id, text: "waiting at the deletion", expiresAt: inADay() }),
      ),
    ).toBe(true);

    expect((await api.request("DELETE", "/auth/delete-account", { token: patient.token })).status).toBe(200);
    const rows = await api.db.select().from(smsOutbox).where(eq(smsOutbox.userId, patient.user.id));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ recipient: null, text: null });
    expect(rows.filter((r) => r.sentAt).map((r) => r.messageId)).toEqual([sent.messageId]);
    expect(
      rows
        .filter((r) => !r.sentAt)
        .map((r) => [r.kind, r.dropped, r.failedAt === null])
        .sort(),
    ).toEqual([
      ["code", "account_deleted", false],
      ["notice", "account_deleted", false],
    ]);
    expect(JSON.stringify(await api.db.select().from(smsOutbox))).not.toContain(phone);

    const second = startSmsWorker({ db: api.db, sender: sender(), maxPerHour: 1000, pollMs: 50 });
    closeLater.push({ close: second.stop });
    await second.drain();
    expect(gateway.received.filter((m) => m.to === phone.slice(1))).toHaveLength(1);
  });
});

describe("the SMPP session", () => {
  it("binds as a transceiver, keeps the link alive with enquire_link, and binds again by itself after a drop", async () => {
    const link = await startSmppServer();
    const sender = smppSender({ url: link.url(), from: "HealthBook", enquireLinkMs: 50, rebindMs: 50, log: () => {} });
    try {
      await sender.send({ to: "+237670000002", text: "first" });
      await vi.waitFor(() => expect(link.enquireLinks).toBeGreaterThanOrEqual(2));
      link.dropSessions();
      // Bound again with no message to send: receipts of earlier messages can come in.
      await vi.waitFor(() => expect(link.binds).toBe(2));
      expect(link.bindKinds).toEqual(["bind_transceiver", "bind_transceiver"]);
      await sender.send({ to: "+237670000002", text: "second" });
      expect(link.received.map((m) => m.text)).toEqual(["first", "second"]);
    } finally {
      await sender.close();
      await link.stop();
    }
  });

  it("binds as a transmitter with ?bind=transmitter and sends from the sender ID", async () => {
    const link = await startSmppServer();
    const sender = smppSender({ url: `${link.url()}?bind=transmitter`, from: "Clinic1" });
    try {
      const id = await sender.send({ to: "+237670000003", text: "tx" });
      expect(id).toBe(link.received[0].messageId);
      expect(link.bindKinds).toEqual(["bind_transmitter"]);
      expect(link.received[0]).toMatchObject({ from: "Clinic1", to: "237670000003" });
    } finally {
      await sender.close();
      await link.stop();
    }
  });
});

describe("metrics and the development console", () => {
  it("reports the outbox's messages by state and the delivery receipts, beside the mail outbox's", async () => {
    watchSmsOutbox(api.db);
    const patient = await patientWithPhone();
    await verifyAndTurnOn(patient);
    await vi.waitFor(async () => expect((await rowsTo(patient.user.phone!))[0].deliveryStatus).toBe("DELIVRD"));
    const text = await client.register.metrics();
    const value = (line: RegExp) => Number(text.match(line)?.[1]);
    expect(value(/^sms_outbox_messages\{state="sent"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^sms_outbox_messages\{state="waiting"\} (\d+)$/m)).toBeGreaterThanOrEqual(0);
    expect(value(/^sms_delivery_receipts\{status="DELIVRD"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^sms_outbox_oldest_seconds \d/m);
  });

  it("without SMS_URL in development, prints the message and keeps it as a file beside the mail's", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sms-outbox-"));
    const printed = vi.spyOn(console, "log").mockImplementation(() => {});
    await consoleSender(dir).send({ to: "+237670000001", text: "HealthBook code: 123456." });
    expect(printed.mock.calls.join("\n")).toContain("[sms] to=+237670000001");
    const [file] = fs.readdirSync(dir);
    expect(file).toMatch(/-sms-\+237670000001\.json$/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))).toEqual({
      sms: true,
      to: "+237670000001",
      text: "HealthBook code: 123456.",
    });
    fs.rmSync(dir, { recursive: true });
  });
});

describe("a server without SMS", () => {
  let plain: TestApi;
  beforeAll(async () => {
    plain = await startApi({ smsAvailable: false });
  });
  afterAll(() => plain.close());

  it("says SMS is unavailable and refuses codes and SMS on", async () => {
    const patient = await plain.createPatient({ phone: "+237670009999" });
    const got = await plain.request("GET", "/settings", { token: patient.token, answer: mailSettings });
    expect(got.body).toMatchObject({ smsAvailable: false, sms: false });
    for (const [method, path, body] of [
      ["POST", "/settings/phone/code", undefined],
      ["PUT", "/settings", { sms: true }],
    ] as const) {
      const res = await plain.request(method, path, { token: patient.token, body });
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("sms_unavailable");
    }
  });
});
