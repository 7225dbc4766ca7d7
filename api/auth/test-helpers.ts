// Small helpers for the account tests: registrations through the API and raw responses with headers.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { oneTimeCodes } from "../db/schema.ts";
import type { TestApi } from "../test/harness.ts";
import { loggedIn, registered } from "../../contract/auth.ts";

export const patientPayload = (api: TestApi, overrides: Record<string, unknown> = {}) => ({
  username: "Amina Nguema",
  email: api.unique("new-patient"),
  phone: "+237 670 000 001",
  password: "Secret123!",
  userRole: "patient",
  ...overrides,
});

export const doctorPayload = (api: TestApi, overrides: Record<string, unknown> = {}) => ({
  username: "Boris Ekane",
  email: api.unique("new-doctor"),
  contact: "6 99 00 11 22",
  password: "Secret123!",
  serial_number: `MED-${randomUUID().slice(0, 6)}`,
  userRole: "doctor",
  ...overrides,
});

/** Registers through the API and returns the answer plus the mailed code. */
export async function registerPatient(api: TestApi, overrides: Record<string, unknown> = {}) {
  const payload = patientPayload(api, overrides);
  const res = await api.request("POST", "/auth/register", { answer: registered, body: payload });
  if (res.status !== 201) throw new Error(`register answered ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    email: payload.email as string,
    password: payload.password as string,
    code: api.mailer.lastCodeFor(payload.email as string)!,
  };
}

/** A verified patient registered through the API, logged in. */
export async function verifiedPatient(api: TestApi, overrides: Record<string, unknown> = {}) {
  const r = await registerPatient(api, overrides);
  const verified = await api.request("PUT", `/auth/verifyUser/${r.id}`, { body: { otpCode: r.code } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}`);
  const login = await api.request("POST", "/auth/login", {
    answer: loggedIn,
    body: { email: r.email, password: r.password, role: "patient" },
  });
  return { ...r, token: login.body.token.token };
}

/** A raw call keeping the headers (for Retry-After). */
export async function rawRequest(
  api: TestApi,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(api.url + path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Moves a code's clock: expiry and issue time `seconds` into the past (or future). */
export async function ageCode(
  api: TestApi,
  userId: string,
  purpose: "verify" | "profile" | "reset",
  fields: { expired?: boolean; issuedSecondsAgo?: number },
) {
  const set: Partial<typeof oneTimeCodes.$inferInsert> = {};
  if (fields.expired) set.expiresAt = new Date(Date.now() - 1000);
  if (fields.issuedSecondsAgo !== undefined) set.createdAt = new Date(Date.now() - fields.issuedSecondsAgo * 1000);
  await api.db
    .update(oneTimeCodes)
    .set(set)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)));
}

/** A six-digit code different from `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
