// Register and forgot-password against a real SMTP server on 127.0.0.1 that takes a second to accept
// a message, as a distant or busy one may: the mail arrives once, and the answer takes the same time
// whether or not the address has an account (no enumeration by timing). The margin is deliberately
// loose (a password hash on a busy machine varies by hundreds of milliseconds): before the outbox,
// mail was sent inside the request and an existing address answered a whole second later.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../mail/index.ts";
import { startApi, type TestApi } from "../test/harness.ts";
import { startSmtpServer, type TestSmtpServer } from "../test/smtp.ts";
import { patientPayload } from "./test-helpers.ts";

const SMTP_DELAY_MS = 1000;
const MARGIN_MS = 500;
const TRIES = 5;

let smtp: TestSmtpServer;
let api: TestApi;
beforeAll(async () => {
  smtp = await startSmtpServer({ delayMs: SMTP_DELAY_MS });
  api = await startApi({ transport: createMailer({ smtpUrl: smtp.url }) });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

let address = 0;
/** Milliseconds for one call, from its own client address (the per-address limits stay out of the way). */
async function timed(path: string, body: unknown) {
  const started = performance.now();
  const res = await fetch(api.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.18.0.${++address}` },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  // Whatever the call queued is sent before the next try, so no try pays for another's mail.
  await api.deliverMail();
  return { status: res.status, ms };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe("mail outside the request, with a real SMTP server", () => {
  it("forgot-password answers an existing and an unknown address in the same time; the code arrives once", async () => {
    const existing: number[] = [];
    const unknown: number[] = [];
    const accounts = [];
    for (let i = 0; i < TRIES; i++) accounts.push((await api.createPatient()).user.email);
    for (let i = 0; i < TRIES; i++) {
      const known = await timed("/auth/forgot-password", { email: accounts[i] });
      const ghost = await timed("/auth/forgot-password", { email: api.unique("ghost") });
      expect([known.status, ghost.status]).toEqual([200, 200]);
      existing.push(known.ms);
      unknown.push(ghost.ms);
    }
    expect(
      Math.abs(median(existing) - median(unknown)),
      `existing ${existing.map(Math.round)} vs unknown ${unknown.map(Math.round)} ms`,
    ).toBeLessThan(MARGIN_MS);
    for (const email of accounts) expect(smtp.to(email)).toHaveLength(1);
  }, 60_000);

  it("register answers a new and a taken address in the same time; each mail arrives once", async () => {
    const fresh: number[] = [];
    const taken: number[] = [];
    const owners = [];
    for (let i = 0; i < TRIES; i++) owners.push((await api.createPatient()).user.email);
    const created = [];
    for (let i = 0; i < TRIES; i++) {
      const payload = patientPayload(api);
      created.push(payload.email);
      const a = await timed("/auth/register", payload);
      const b = await timed("/auth/register", patientPayload(api, { email: owners[i] }));
      expect([a.status, b.status]).toEqual([201, 201]);
      fresh.push(a.ms);
      taken.push(b.ms);
    }
    expect(
      Math.abs(median(fresh) - median(taken)),
      `new ${fresh.map(Math.round)} vs taken ${taken.map(Math.round)} ms`,
    ).toBeLessThan(MARGIN_MS);
    // The new account gets its code, the owner a notice: one mail each.
    for (const email of [...created, ...owners]) expect(smtp.to(email)).toHaveLength(1);
  }, 90_000);
});
