// The users and sessions of the browser tests, as Playwright fixtures: each test gets its own
// patient or doctor, made through the API (register, mailed code, admin approval), and a signed-in
// browser by posting the login form once over HTTP, without drawing the login page. Only the specs
// that test registration and login themselves go through those forms. No test reads or changes the
// demo seed's users, and none depends on another having run before it.
//
//   import { expect, test } from "./fixtures.ts";
//   test("...", async ({ page, patient, signIn }) => { await signIn(patient); await page.goto(...) });
//
// `language` ("en" or "fr") is an option: `test.use({ language: "fr" })` gives the page a French
// browser (Accept-Language) and the language cookie, as a user who chose French.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import type { Locator, Page } from "@playwright/test";
import { api, apiLogin, generalPractice, newCode, PASSWORD, signInContext, uniqueName } from "./doctor-helpers.ts";
import { expect, test as base, uniqueEmail } from "./support.ts";

export { expect };

type Role = "patient" | "doctor" | "admin" | "receptionist";
export type Language = "en" | "fr";

/** A user made for one test: what the API answered, and the token to call it as them. */
export interface Account {
  id: string;
  email: string;
  username: string;
  token: string;
  role: Role;
}

/**
 * A verified patient. The code is read from the mail's line of its own, so a name made only of
 * digits cannot be taken for it; a retry covers a mail that is slow to come.
 */
export async function createPatient(options: { username?: string; phone?: string } = {}): Promise<Account> {
  const email = uniqueEmail("patient");
  const username = options.username ?? uniqueName("Patient");
  const registered = await api("POST", "/auth/register", {
    body: { username, email, phone: options.phone ?? randomMobile(), password: PASSWORD, userRole: "patient" },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  const verified = await api("PUT", `/auth/verifyUser/${registered.body.id}`, {
    body: { otpCode: await newCode(email) },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { email, username, role: "patient", ...(await apiLogin(email, "patient")) };
}

/**
 * A doctor's registration awaiting the admin's decision (the admin's queue holds it from the start,
 * before the mail is verified).
 */
export async function registerDoctor(options: { username?: string } = {}) {
  const email = uniqueEmail("doctor");
  const username = options.username ?? uniqueName("Doctor");
  const registered = await api("POST", "/auth/register", {
    body: {
      username,
      email,
      contact: randomMobile(),
      password: PASSWORD,
      serial_number: `MD-${randomUUID().slice(0, 8)}`,
      userRole: "doctor",
    },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  return { id: registered.body.id as string, email, username };
}

/** A doctor who registered and verified the mail, not yet approved by an admin. */
export async function createUnapprovedDoctor(options: { username?: string } = {}) {
  const doctor = await registerDoctor(options);
  const verified = await api("PUT", `/auth/verifyUser/${doctor.id}`, {
    body: { otpCode: await newCode(doctor.email) },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return doctor;
}

/** The hospital a fixture doctor is on duty at (shown for in-person appointments). */
export const DUTY_HOSPITAL = "Hôpital de District de Deido";

/** A doctor approved by `admin` for `specialityIds`, on duty at DUTY_HOSPITAL. */
export async function createDoctor(
  admin: Account,
  specialityIds: number[],
  options: { username?: string } = {},
): Promise<Account> {
  const doctor = await createUnapprovedDoctor(options);
  const approved = await api("POST", `/admin/doctors/${doctor.id}/approve`, {
    token: admin.token,
    body: { specialityIds },
  });
  expect(approved.status, JSON.stringify(approved.body)).toBeLessThan(300);
  const session = await apiLogin(doctor.email, "doctor");
  const profile = await api("PUT", "/doctor/me", { token: session.token, body: { duty_hospital: DUTY_HOSPITAL } });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  return { ...doctor, role: "doctor", ...session };
}

/**
 * A receptionist serving `doctors`, made as the admin makes one (docs/product.md, The front desk):
 * the staff form's call, then the invitation mail's code sets the password, as the new
 * receptionist does on the reset-password page.
 */
export async function createReceptionist(
  admin: Account,
  doctors: { id: string }[],
  options: { username?: string } = {},
): Promise<Account> {
  const email = uniqueEmail("desk");
  const username = options.username ?? uniqueName("Desk");
  const created = await api("POST", "/admin/staff", {
    token: admin.token,
    body: { username, email, doctorIds: doctors.map((d) => d.id) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const reset = await api("POST", "/auth/reset-password", {
    body: { email, code: await newCode(email), password: PASSWORD },
  });
  expect(reset.status, JSON.stringify(reset.body)).toBeLessThan(300);
  return { email, username, role: "receptionist", ...(await apiLogin(email, "receptionist")) };
}

/** A Cameroonian mobile number (67x xxx xxx), different for each call. */
export function randomMobile() {
  return `67${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
}

/**
 * An admin of its own for a worker, made as an operator does: `npm run admin -- create-admin`,
 * which hands the command to the running app (it owns the embedded database folder). Made once
 * per worker process (the `admin` fixture and the helpers share it).
 */
let adminOfWorker: Promise<Account> | undefined;
export const workerAdmin = () => (adminOfWorker ??= createAdmin());

/** Runs `npm run admin -- ...args` against the test app's data folder; its standard output. */
async function adminCommand(args: string[], env: Record<string, string> = {}) {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  const { stdout } = await promisify(execFile)(process.execPath, [path.resolve("api/cli.ts"), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
  });
  return stdout;
}

async function createAdmin(): Promise<Account> {
  const email = uniqueEmail("admin");
  await adminCommand(["create-admin", email, uniqueName("Admin")], { ADMIN_PASSWORD: PASSWORD });
  // An admin logs in with either radio (docs/product.md, Roles and homes): the API answers the role.
  return { email, username: "", role: "admin", ...(await apiLogin(email, "admin")) };
}

/**
 * Past confirmed appointments of `doctor` with `patient`, one a day at 10:00 over the last `days`
 * days, oldest last: the API never books in the past, so the demo database's operator command
 * writes them (`npm run admin -- demo-history`, run by the app that owns the data folder).
 */
export async function pastAppointments(doctor: Account, patient: Account, days = 2): Promise<string[]> {
  const out = await adminCommand(["demo-history", doctor.email, patient.email, "--days", String(days)]);
  const ids = out.trim().split(": ")[1]?.split(" ") ?? [];
  expect(ids, out).toHaveLength(days);
  return ids;
}

/** A confirmed appointment of `doctor` with `patient` today at 10:00 clinic time (the same demo command). */
export async function todayAppointment(doctor: Account, patient: Account): Promise<string> {
  const out = await adminCommand(["demo-history", doctor.email, patient.email, "--today"]);
  const id = out.trim().split(": ")[1];
  expect(id, out).toMatch(/^[0-9a-f-]{36}$/);
  return id!;
}

/** The language cookie the app reads first (app/i18n.server.ts). */
const languageCookie = (baseURL: string, language: Language) => ({ name: "i18nextLng", value: language, url: baseURL });

const MENU = {
  en: { open: "Open menu", main: "Main menu", side: "Side menu" },
  fr: { open: "Ouvrir le menu", main: "Menu principal", side: "Menu latéral" },
};

/**
 * The role's menu, opened if the screen collapses it: on a phone the side menu lives behind the
 * menu button of the top bar (docs/layout.md); on a desktop it is always shown.
 */
export async function mainMenu(page: Page, language: Language = "en"): Promise<Locator> {
  const labels = MENU[language];
  const toggle = page.getByLabel(labels.open, { exact: true });
  if (await toggle.isVisible()) {
    const main = page.getByRole("navigation", { name: labels.main });
    if (!(await main.isVisible())) await toggle.click();
    await expect(main).toBeVisible();
    return main;
  }
  return page.getByRole("navigation", { name: labels.side });
}

/** Registrations per /admin page (the API's default for this list). */
export const ADMIN_PAGE_SIZE = 20;

/**
 * The page of the registrations in `status` that holds the doctor named `username` now: the queue
 * is oldest first and other tests add and decide on theirs meanwhile, so a new registration is
 * on no page known in advance.
 */
export async function adminPageOf(admin: Account, username: string, status = "pending") {
  for (let page = 1; ; page++) {
    const answer = await api("GET", `/admin/doctors?status=${status}&limit=${ADMIN_PAGE_SIZE}&page=${page}`, {
      token: admin.token,
    });
    expect(answer.status).toBe(200);
    if (answer.body.doctors.some((d: { username: string }) => d.username === username)) return page;
    if (page >= answer.body.totalPages) throw new Error(`${username} is not ${status}`);
  }
}

/** The card of the doctor named `username` on the admin's queue, with the page that holds it open. */
export async function queueCard(page: Page, admin: Account, username: string) {
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: username, exact: true }) });
  await expect(async () => {
    await page.goto(`/admin?page=${await adminPageOf(admin, username)}`);
    await expect(card).toHaveCount(1, { timeout: 2_000 });
  }).toPass();
  return card;
}

/** A fresh verified patient, for specs that make more than the `patient` fixture. */
export const newPatient = () => createPatient();

/** A doctor of `specialityId`, approved by this worker's admin. */
export const newVerifiedDoctor = async (specialityId: number) => createDoctor(await workerAdmin(), [specialityId]);

interface Fixtures {
  /** The test's language: Accept-Language and the language cookie. */
  language: Language;
  /** A fresh verified patient of this test. */
  patient: Account;
  /** A fresh doctor of this test, approved for General practice. */
  doctor: Account;
  /** Signs the test's browser context in as `who` (no login page drawn). */
  signIn: (who: { email: string; role: Role }) => Promise<void>;
}

interface WorkerFixtures {
  /** An admin of this worker (the CLI's create-admin), for approvals and the admin screens. */
  admin: Account;
  /** The id of General practice, the speciality the fixture doctors practise. */
  generalPractice: number;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  language: ["en", { option: true }],
  locale: async ({ language }, use) => {
    await use(language === "fr" ? "fr-FR" : "en-US");
  },
  context: async ({ context, language, baseURL }, use) => {
    if (language !== "en") await context.addCookies([languageCookie(baseURL!, language)]);
    await use(context);
  },
  admin: [async ({}, use) => use(await workerAdmin()), { scope: "worker" }],
  generalPractice: [async ({}, use) => use(await generalPractice()), { scope: "worker" }],
  patient: async ({}, use) => {
    await use(await createPatient());
  },
  doctor: async ({ admin, generalPractice }, use) => {
    await use(await createDoctor(admin, [generalPractice]));
  },
  signIn: async ({ context }, use) => {
    await use((who) => signInContext(context, who));
  },
});
