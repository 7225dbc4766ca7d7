// Test harness: a fresh database per test file (in-memory PGlite, or a new database on the
// PostgreSQL server named by TEST_DATABASE_URL), copied from the run's template (migrated once,
// with the reference data: api/test/database-template.ts); the API on an ephemeral 127.0.0.1
// port, its mail outbox delivered to a memory mailer before each answer reaches the test, and
// small factories. A test file (or describe block) takes its own with setUpApi().
import { randomUUID } from "node:crypto";
import { serve } from "./serve.ts";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import type { z } from "zod";
import { createApi } from "../app.ts";
import {
  cities,
  countries,
  doctorSpecialities,
  doctors,
  patients,
  specialities,
  staffDoctors,
  users,
} from "../db/schema.ts";
import { memoryMailer, type Mailer } from "../mail/index.ts";
import { outboxMailer, startOutboxWorker } from "../mail/outbox.ts";
import { startSmsWorker } from "../sms/outbox.ts";
import type { SmsSender } from "../sms/smpp.ts";
import type { BookingLimits } from "../appointment/booking-limits.ts";
import { hashPassword } from "../auth/password.ts";
import { issueToken } from "../auth/tokens.ts";
import { seedReferenceData } from "../db/reference.ts";
import type { Db } from "../db/index.ts";
import { apiError, type ApiError } from "../../contract/errors.ts";
import type { DoctorVerification } from "../../contract/constants.ts";
import { matches } from "./contract-match.ts";
import { openScratchDatabase, type DatabaseTemplate } from "./scratch-database.ts";

export const PASSWORD = "Secret123!";

/**
 * Booking limits out of the way (the most config.ts allows), for the tests of other rules that book
 * many slots for one patient; api/appointment/booking-limits.test.ts tests the limits themselves.
 */
export const UNBOUND_BOOKINGS = { perDoctor: 1000, total: 1000 };

/**
 * An answer: its body is `unknown` unless the request named the answer it expects (`answer`, a
 * contract/ schema), and a refusal is read through `refusal()`.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** A refusal's `{message, code}` (contract/errors.ts); the test fails on any other body. */
export function refusal(res: ApiResponse): ApiError {
  return apiError.parse(res.body);
}

/** The run's template (api/test/database-template.ts) under vitest; none elsewhere (inject throws there). */
function vitestTemplate(): DatabaseTemplate | undefined {
  try {
    return inject("databaseTemplate");
  } catch {
    return undefined;
  }
}

/**
 * `transport`: where the outbox delivers (default: the memory mailer returned as `mailer`);
 * `codeResendSeconds`: CODE_RESEND_SECONDS (default: the production minute); `sms`: where the SMS
 * outbox sends (an SMPP gateway of api/test/smpp.ts; none: SMS stay queued); `smsAvailable`: false
 * for a server without SMS; `bookingLimits`: BOOKING_LIMIT_PER_DOCTOR and BOOKING_LIMIT_TOTAL
 * (default: the deployment's defaults).
 */
export async function startApi(
  options: {
    transport?: Mailer;
    codeResendSeconds?: number;
    sms?: SmsSender;
    smsAvailable?: boolean;
    smsCountries?: readonly string[];
    bookingLimits?: BookingLimits;
  } = {},
) {
  // A copy of the run's migrated template, which already holds the reference data; outside vitest
  // (a browser spec's own stack) a database migrated here and given the reference data.
  const template = vitestTemplate();
  const database = await openScratchDatabase({ serverUrl: process.env.TEST_DATABASE_URL, prefix: "t", template });
  const { db } = database;
  if (!template) await seedReferenceData(db);
  const mailer = memoryMailer();
  const worker = startOutboxWorker({ db, transport: options.transport ?? mailer });
  const sms = options.sms
    ? startSmsWorker({ db, sender: options.sms, maxPerHour: 1000, pollMs: 100, backoffMs: () => 200 })
    : undefined;
  const wake = () => {
    worker.wake();
    sms?.wake();
  };
  // What createApi takes, for tests that mount the API in an app of their own.
  const deps = {
    db,
    mailer: outboxMailer(db, wake),
    codeResendSeconds: options.codeResendSeconds,
    smsAvailable: options.smsAvailable,
    smsCountries: options.smsCountries,
    bookingLimits: options.bookingLimits,
  };
  const app = createApi(deps);
  const served = await serve(app);
  const { url } = served;

  /**
   * With `answer`, a 2xx answer's body must parse with that contract schema and come out unchanged
   * (api/test/contract-match.ts), and is typed by it; a refusal's body is left to `refusal()`.
   */
  async function request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  async function request<S extends z.ZodType>(
    method: string,
    path: string,
    options: RequestOptions & { answer: S },
  ): Promise<ApiResponse<z.output<S>>>;
  async function request(
    method: string,
    path: string,
    options: RequestOptions & { answer?: z.ZodType } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetch(url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    // The mail an answer queued is in `mailer` when the test reads the answer.
    await worker.drain();
    const body: unknown = text ? JSON.parse(text) : null;
    if (options.answer && res.ok) matches(options.answer, body);
    return { status: res.status, body };
  }

  const accounts = accountFactories(db);

  async function close() {
    await served.close();
    await worker.stop();
    await sms?.stop();
    await database.close();
    await database.drop();
  }

  return {
    url,
    db,
    reopen: database.reopen,
    deps,
    mailer,
    deliverMail: worker.drain,
    smsWorker: sms,
    request,
    ...accounts,
    close,
  };
}

/**
 * Accounts and reference data written straight into `db`, each account with a live token: the test
 * API's (startApi), or a database an entry point is then started on (migratedDataDir's `seed`).
 */
export function accountFactories(db: Db) {
  let counter = 0;
  const unique = (prefix: string) => `${prefix}${++counter}-${randomUUID().slice(0, 8)}@example.test`;

  async function reference() {
    const [cameroon] = await db.select().from(countries).where(eq(countries.code, "CM"));
    const cityRows = await db.select().from(cities).where(eq(cities.countryId, cameroon.id));
    const specialityRows = await db.select().from(specialities).orderBy(specialities.id);
    const city = (name: string) => cityRows.find((c) => c.name === name)!;
    const speciality = (name: string) => specialityRows.find((s) => s.name === name)!;
    return { cameroon, cities: cityRows, specialities: specialityRows, city, speciality };
  }

  /** A verified patient with a live token. */
  async function createPatient(overrides: Partial<typeof users.$inferInsert> & { profession?: string } = {}) {
    const { profession, ...fields } = overrides;
    const email = fields.email ?? unique("patient");
    const [user] = await db
      .insert(users)
      .values({
        username: "Test Patient",
        phone: "0612345678",
        passwordHash: await hashPassword(PASSWORD),
        role: "patient",
        otpVerified: true,
        ...fields,
        email,
      })
      .returning();
    await db.insert(patients).values({ userId: user.id, profession: profession ?? null });
    return { user: { ...user, email }, token: await issueToken(db, user.id) };
  }

  /** A doctor (verified unless said otherwise) with specialities by name and a live token. */
  async function createDoctor(
    options: {
      verification?: DoctorVerification;
      specialities?: string[];
      city?: string;
      username?: string;
      startYear?: number;
    } = {},
  ) {
    const ref = await reference();
    const city = ref.city(options.city ?? "Douala");
    const email = unique("doctor");
    const [user] = await db
      .insert(users)
      .values({
        email,
        username: options.username ?? "Test Doctor",
        passwordHash: await hashPassword(PASSWORD),
        role: "doctor",
        otpVerified: true,
        countryId: ref.cameroon.id,
        cityId: city.id,
      })
      .returning();
    const verification = options.verification ?? "verified";
    await db.insert(doctors).values({
      userId: user.id,
      serialNumber: `MED-${user.id.slice(0, 6)}`,
      contact: "+237 600 000 000",
      dutyHospital: "Hôpital Laquintinie",
      startYear: options.startYear ?? 2015,
      verification,
      verifiedAt: verification === "verified" ? new Date() : null,
    });
    const names = options.specialities ?? ["General practice"];
    if (names.length) {
      await db
        .insert(doctorSpecialities)
        .values(names.map((n) => ({ doctorId: user.id, specialityId: ref.speciality(n).id })));
    }
    return { user: { ...user, email }, token: await issueToken(db, user.id) };
  }

  async function createAdmin() {
    const email = unique("admin");
    const [user] = await db
      .insert(users)
      .values({
        email,
        username: "Admin",
        passwordHash: await hashPassword(PASSWORD),
        role: "admin",
        otpVerified: true,
      })
      .returning();
    return { user: { ...user, email }, token: await issueToken(db, user.id) };
  }

  /** A receptionist serving these doctors (docs/product.md, The front desk), with a live token. */
  async function createReceptionist(doctorIds: string[], username = "Test Reception") {
    const email = unique("reception");
    const [user] = await db
      .insert(users)
      .values({ email, username, passwordHash: await hashPassword(PASSWORD), role: "receptionist", otpVerified: true })
      .returning();
    if (doctorIds.length)
      await db.insert(staffDoctors).values(doctorIds.map((doctorId) => ({ staffId: user.id, doctorId })));
    return { user: { ...user, email }, token: await issueToken(db, user.id) };
  }

  return { unique, reference, createPatient, createDoctor, createAdmin, createReceptionist };
}

export type TestApi = Awaited<ReturnType<typeof startApi>>;
/** What the test API's helpers give: an account with its token, and the reference data. */
export type TestPatient = Awaited<ReturnType<TestApi["createPatient"]>>;
export type TestDoctor = Awaited<ReturnType<TestApi["createDoctor"]>>;
export type TestAdmin = Awaited<ReturnType<TestApi["createAdmin"]>>;
export type TestReceptionist = Awaited<ReturnType<TestApi["createReceptionist"]>>;
export type TestReference = Awaited<ReturnType<TestApi["reference"]>>;

/**
 * Fills `dataDir`/db (the embedded database of a DATA_DIR) with a copy of the run's template, as
 * the folder of an app that has run before, for a test that spawns an entry point on it: a first
 * start on an empty folder runs every migration, seconds of CPU. `seed` writes in it first.
 */
export async function migratedDataDir(dataDir: string, seed?: (db: Db) => Promise<unknown>) {
  const template = vitestTemplate();
  const database = await openScratchDatabase({
    dataDir: path.join(dataDir, "db"),
    prefix: "d",
    template: template?.kind === "pglite" ? template : undefined,
  });
  try {
    if (!template) await seedReferenceData(database.db);
    await seed?.(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The API of a test file or of a describe block: started in its beforeAll (registered here, so
 * before the block's own hooks that make its users) and closed in its afterAll. The object stands
 * for the started API; reading it outside a hook or a test is a mistake, said as such.
 */
export function setUpApi(options: Parameters<typeof startApi>[0] = {}): TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startApi(options);
  });
  afterAll(() => api?.close());
  return new Proxy({} as TestApi, {
    get(_, key) {
      if (!api) throw new Error("the test API starts in beforeAll: use it inside a hook or a test");
      return api[key as keyof TestApi];
    },
  });
}

/** Cameroon's fixed public holidays (MM-DD): closed days of the clinic from migration 0010 on. */
const FIXED_HOLIDAYS = ["01-01", "02-11", "05-01", "05-20", "08-15", "12-25"];

/**
 * The `days`-th open day after today in UTC (YYYY-MM-DD): Monday to Friday and not a fixed public
 * holiday, so every slot of it can be booked under the default working plan (docs/product.md,
 * Availability). Distinct counts give distinct days, in the same order; 60 open days stay within
 * the default 90 days' horizon. Slots are in the clinic zone (UTC+1).
 */
export function futureDate(days = 7): string {
  let day = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  for (let left = days; ; ) {
    day += 86_400_000;
    const date = new Date(day);
    const weekday = date.getUTCDay();
    if (weekday === 0 || weekday === 6 || FIXED_HOLIDAYS.includes(date.toISOString().slice(5, 10))) continue;
    if (--left <= 0) return date.toISOString().slice(0, 10);
  }
}
