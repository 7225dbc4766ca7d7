// Small factories for the doctor and admin journeys: API calls at the test server's upstream
// (patients, bookings, open requests, proposals) and the sign-in steps a user takes.
import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { clientAddress, expect, latestCode, mailsTo, uniqueEmail } from "./support.ts";

export { uniqueEmail };

const API = process.env.E2E_API_URL ?? "http://127.0.0.1:3100/api";
export const PASSWORD = "Demo1234!";
export const SLOTS = ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"];

export async function api<T = any>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; from?: string } = {},
) {
  // A client of its own for each call, so the suite's many registrations meet no per-address limit;
  // `from`: a given client address (a browser context's), to count against that client's limits.
  const headers: Record<string, string> = {
    accept: "application/json",
    "x-forwarded-for": options.from ?? clientAddress(),
  };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(API + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 6)}`;

/** How many mails the address has received so far (to wait for the next code). */
export const mailCount = async (email: string) => (await mailsTo(email)).length;

/** The code of the first mail to `email` after the `after` mails already received. */
export const newCode = (email: string, after = 0) => latestCode(email, { after });

export async function apiLogin(email: string, role: "patient" | "doctor" | "admin" | "receptionist") {
  const answer = await api("POST", "/auth/login", { body: { email, password: PASSWORD, role } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { id: answer.body.data.id as string, token: answer.body.token.token as string };
}

export async function generalPractice() {
  const list = await api<{ id: number; name: string }[]>("GET", "/speciality");
  const found = list.body.find((s) => s.name === "General practice");
  if (!found) throw new Error("General practice is missing from /speciality");
  return found.id;
}

/** Cameroon's fixed public holidays (MM-DD), closed days of the clinic (migration 0010). */
const FIXED_HOLIDAYS = ["01-01", "02-11", "05-01", "05-20", "08-15", "12-25"];

/**
 * A random day from `minDays` to 85 days ahead that the default working plan offers (Monday to
 * Friday, not a fixed holiday, within the 90 days' horizon: docs/product.md, Availability).
 */
export function openDay(minDays = 20): string {
  for (;;) {
    const day = new Date(Date.now() + (minDays + Math.floor(Math.random() * (86 - minDays))) * 86_400_000);
    const date = day.toISOString().slice(0, 10);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6 && !FIXED_HOLIDAYS.includes(date.slice(5))) return date;
  }
}

/** A future open day and slot; random so runs seldom collide on the doctor's slots (book() tries again). */
export function futureSlot(minDays = 20) {
  return { date: openDay(minDays), time: SLOTS[Math.floor(Math.random() * SLOTS.length)]! };
}

const listOf = (body: any, key: string) => (Array.isArray(body) ? body : (body?.[key] ?? []));

/** A direct booking of `doctorId` by the patient, on a free future slot. */
export async function book(patient: { token: string }, doctor: string, specialityId: number) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const { date, time } = futureSlot();
    const created = await api("POST", "/appointment", {
      token: patient.token,
      body: { doctorId: doctor, specialityId, type: "online", status: "pending", category: "direct", date, time },
    });
    if (created.status === 409) continue;
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    return { id: created.body.id as string, date, time };
  }
  throw new Error("no free slot found");
}

export async function openRequest(patient: { token: string }, specialityId: number, { date, time } = futureSlot()) {
  const created = await api("POST", "/appointment", {
    token: patient.token,
    body: { specialityId, type: "online", status: "pending", category: "random", date, time },
  });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  return { id: created.body.id as string, date, time };
}

/** What the patient sees of one of their appointments. */
export async function patientSees(patient: { token: string }, id: string) {
  const list = await api("GET", "/appointment?limit=100", { token: patient.token });
  return listOf(list.body, "appointments").find((a: any) => a.id === id);
}

/** Where the app is (the API's address without /api). */
const BASE_URL = API.replace(/\/api$/, "");

/**
 * Signs `who` in within `context`: the login form posted over HTTP with the context's cookies, as
 * the browser would post it, so the session cookie lands in the context without drawing the login
 * page. An admin logs in with the patient radio (docs/product.md, Roles and homes).
 */
export async function signInContext(
  context: BrowserContext,
  who: { email: string; role: "patient" | "doctor" | "admin" | "receptionist" },
) {
  // The login page's cookie check (app/session.server.ts): a browser that keeps cookies sends it back.
  await context.addCookies([{ name: "cookie_check", value: "1", url: BASE_URL }]);
  const answer = await context.request.post(`${BASE_URL}/login`, {
    form: { email: who.email, password: PASSWORD, role: who.role === "admin" ? "patient" : who.role },
    maxRedirects: 0,
  });
  expect(answer.status(), `login of ${who.email}: ${answer.status()}`).toBe(302);
}

const HOME = {
  patient: "/health/doctors",
  doctor: "/doctor/appointments",
  admin: "/admin",
  receptionist: "/reception",
};

/**
 * Signed in as `email` (`role` is the login form's radio), on the role's home page. The login form
 * itself is tested by auth.spec.ts; here the session comes from one HTTP post.
 */
export async function signIn(page: Page, email: string, role: "patient" | "doctor" | "admin" | "receptionist") {
  await signInContext(page.context(), { email, role });
  await page.goto(HOME[role]);
}

export async function signOut(page: Page) {
  await page.context().clearCookies();
}

/** Types a six-digit code into the six boxes. */
export async function enterCode(page: Page, code: string) {
  for (let i = 0; i < 6; i++) await page.locator(`input[name="code${i}"]`).fill(code[i]!);
}

/**
 * Passes the doctor's profile gate in `context` as the doctor does: the gate mails a code when it
 * opens, the code is typed in. The pass is kept in the session cookie for 30 minutes. `baseURL`:
 * for a context made without the configuration's.
 */
export async function passProfileGate(context: BrowserContext, email: string, baseURL = "") {
  const before = await mailCount(email);
  expect((await context.request.get(`${baseURL}/doctor/profile`)).status()).toBe(200);
  const code = await newCode(email, before);
  const form: Record<string, string> = { intent: "verify" };
  for (let i = 0; i < 6; i++) form[`code${i}`] = code[i]!;
  const answer = await context.request.post(`${baseURL}/doctor/profile`, { form, maxRedirects: 0 });
  expect(answer.status(), "the profile gate lets the doctor in").toBe(302);
}
