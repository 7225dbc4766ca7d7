// The one configuration module: every variable the web server (server.ts), the API alone
// (api/main.ts), the administration CLI (api/cli.ts), the build (vite.config.ts) and the benchmarks read is declared, validated
// and given its default here, and nowhere else reads process.env. It sits at the root because both
// app/ and api/ use it and neither should import the other's folder.
//
// A bad value is a StartupError: entry points print its message, which is one line naming the
// variable, and exit non-zero (see exitOnStartupError). Every variable is listed in the README's
// configuration table.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { LevelWithSilent } from "pino";

/** LOG_LEVEL's values: pino's levels. */
const LOG_LEVELS = [
  "fatal",
  "error",
  "warn",
  "info",
  "debug",
  "trace",
  "silent",
] as const satisfies readonly LevelWithSilent[];

/** A problem at start-up that the operator fixes (configuration, data folder, port): one line, no stack. */
export class StartupError extends Error {}

const port = z.coerce
  .number({ error: "must be a port number (1-65535)" })
  .int("must be a port number (1-65535)")
  .min(1, "must be a port number (1-65535)")
  .max(65535, "must be a port number (1-65535)");

// Express's `trust proxy`: true/false, a number of hops, or addresses, subnets and the names
// loopback, linklocal, uniquelocal, comma-separated.
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
function isProxyEntry(entry: string) {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  const version = isIP(address ?? "");
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}
const trustProxy = z
  .string()
  .refine(
    (v) => v === "true" || v === "false" || /^\d{1,2}$/.test(v) || v.split(",").every((e) => isProxyEntry(e.trim())),
    "must be true, false, a number of proxies, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas",
  )
  .transform((v): boolean | number | string[] =>
    v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v.split(",").map((e) => e.trim()),
  );

const reminderHours = z
  .string()
  .regex(
    /^(none|\d{1,3}(\s*,\s*\d{1,3})*)$/,
    "must be hours before the appointment separated by commas (24,2), or none",
  )
  .transform((v) => (v === "none" ? [] : [...new Set(v.split(",").map(Number))].sort((a, b) => b - a)))
  .refine((hours) => hours.every((h) => h >= 1 && h <= 336), "must be hours between 1 and 336 (two weeks)");

/** BOOKING_LIMIT_PER_DOCTOR's and BOOKING_LIMIT_TOTAL's defaults, also the API's when it is given none (tests). */
export const BOOKING_LIMIT_DEFAULTS = { perDoctor: 2, total: 6 };
const bookingLimit = z.coerce
  .number({ error: "must be a whole number from 1 to 1000" })
  .int("must be a whole number from 1 to 1000")
  .min(1, "must be a whole number from 1 to 1000")
  .max(1000, "must be a whole number from 1 to 1000");

function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Text messages (docs/sms.md), kept together so other changes to this file merge around them.
// SMS_URL: the clinic's SMPP aggregator; SMS_FROM: the sender ID operators register (at most 11
// letters and digits); SMS_MAX_PER_HOUR: the ceiling of every instance together; PUBLIC_URL: the
// app's address as patients reach it, the start of the link in each message (at most 40
// characters, so a message with its link fits one SMS).
const smsVariables = {
  SMS_URL: z
    .string()
    .regex(
      /^smpps?:\/\/[^:@/\s]+:[^@/\s]*@[^:/\s]+:\d{1,5}\/?(\?.*)?$/,
      "must be smpp://system_id:password@host:port (or smpps://)",
    )
    .refine(
      (v) => !/[?&]bind=/.test(v) || /[?&]bind=(transmitter|transceiver)(&|$)/.test(v),
      "bind= must be transmitter or transceiver",
    )
    .optional(),
  SMS_FROM: z
    .string()
    .regex(/^[A-Za-z0-9]{1,11}$/, "must be 1 to 11 letters and digits")
    .default("HealthBook"),
  SMS_MAX_PER_HOUR: z.coerce
    .number({ error: "must be a whole number from 1 to 1000000" })
    .int("must be a whole number from 1 to 1000000")
    .min(1, "must be a whole number from 1 to 1000000")
    .max(1_000_000, "must be a whole number from 1 to 1000000")
    .default(500),
  // SMS_COUNTRIES: where codes and notices may be texted, two-letter country codes separated by
  // commas; a number elsewhere is refused before anything is sent (docs/sms.md, Limits).
  SMS_COUNTRIES: z
    .string()
    .regex(/^[A-Za-z]{2}(,[A-Za-z]{2})*$/, "must be two-letter country codes separated by commas, like CM,GA")
    .default("CM")
    .transform((v) => v.toUpperCase().split(",")),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((v) => v.replace(/\/+$/, ""))
    .refine(
      (v) => v.length <= 40 && !/[?#]/.test(v),
      "must be at most 40 characters, without query (it starts the link of every text message)",
    )
    .optional(),
};

/** How text messages leave (docs/sms.md): the aggregator, the development console, or not at all. */
type SmsTransport = "smpp" | "console" | "none";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // The web server (server.ts).
  PORT: port.default(3000),
  HOST: z.string().default("0.0.0.0"),
  API_URL: z.url().optional(),
  API_TIMEOUT_MS: z.coerce.number().int().min(100, "must be at least 100").default(10_000),
  // Web worker processes (node:cluster); default: one per core in production, one otherwise.
  WEB_CONCURRENCY: z.coerce
    .number({ error: "must be a whole number from 1 to 64" })
    .int("must be a whole number from 1 to 64")
    .min(1, "must be a whole number from 1 to 64")
    .max(64, "must be a whole number from 1 to 64")
    .optional(),
  // Set by server.ts for its own web workers when it owns the embedded database: the owner's API.
  // Not an operator's setting (README, Several web workers).
  API_OWNER_URL: z.url().optional(),
  // Comma-separated, to rotate it: the first signs new cookies, every one verifies (README).
  SESSION_SECRET: z
    .string()
    .transform((v) => v.split(",").map((secret) => secret.trim()))
    .refine(
      (secrets) => secrets.every((secret) => secret.length >= 32),
      "must be one or more secrets of at least 32 characters, separated by commas",
    )
    .optional(),
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  TRUST_PROXY: trustProxy.default(["loopback"]),
  // The API alone (api/main.ts).
  API_PORT: port.default(4000),
  API_HOST: z.string().default("127.0.0.1"),
  // Data: both.
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DB_POOL_SIZE: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(10),
  MIGRATIONS_DIR: z.string().default("api/db/migrations"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().optional(),
  // How mail leaves (docs/mail.md); checked against SMTP_URL and NODE_ENV below.
  MAIL_TRANSPORT: z.string().optional(),
  APP_TIMEZONE: z.string().refine(isTimeZone, "unknown time zone").default("Africa/Douala"),
  // Reminder mails before a confirmed appointment (docs/mail.md): hours before its start, or none.
  REMINDER_HOURS: reminderHours.default([24, 2]),
  // How soon a profile-gate code may be replaced by a new one (docs/product.md, Accounts and codes).
  CODE_RESEND_SECONDS: z.coerce
    .number({ error: "must be a whole number of seconds from 1 to 3600" })
    .int("must be a whole number of seconds from 1 to 3600")
    .min(1, "must be a whole number of seconds from 1 to 3600")
    .max(3600, "must be a whole number of seconds from 1 to 3600")
    .default(60),
  // No slot hoarding (docs/product.md, Booking limits): a patient booking for themselves holds at
  // most this many upcoming appointments with one doctor, and in all.
  BOOKING_LIMIT_PER_DOCTOR: bookingLimit.default(BOOKING_LIMIT_DEFAULTS.perDoctor),
  BOOKING_LIMIT_TOTAL: bookingLimit.default(BOOKING_LIMIT_DEFAULTS.total),
  // Video rooms of online appointments (docs/calendars.md): a video service such as a self-hosted
  // Jitsi Meet, whose rooms are `${VIDEO_BASE_URL}/${room}`. Unset: no video link is shown.
  VIDEO_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .refine((v) => !/[?#]/.test(v), "must be an http:// or https:// URL without query or fragment")
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  DEMO: z.enum(["0", "1"]).optional(),
  // Observability (web and API alone): log level, and the token that opens /metrics.
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // The administration CLI (api/cli.ts): create-admin's password when not typed.
  ADMIN_PASSWORD: z.string().optional(),
  ...smsVariables,
});

type Raw = z.output<typeof schema>;
export type Config = Raw & {
  production: boolean;
  /** Web worker processes server.ts runs (WEB_CONCURRENCY, else the cores in production, else 1). */
  webConcurrency: number;
  cookieSecure: boolean;
  demo: boolean;
  /** The embedded database's folder (DATA_DIR/db), when DATABASE_URL is not set. */
  pgliteDir: string;
  /** The development outbox (DATA_DIR/outbox), when SMTP_URL is not set. */
  outboxDir: string;
  /** MIGRATIONS_DIR resolved from the working directory (the project root): the build moves files. */
  migrationsFolder: string;
  /** How the embedded or lone API sends mail; undefined for a web server in front of API_URL, which sends none. */
  mailTransport?: MailTransport;
  /** SMS_URL set: smpp; else console in development and tests, none in production (docs/sms.md). */
  smsTransport: SmsTransport;
  /** PUBLIC_URL, else this server's own address outside production: where the links in text messages lead. */
  publicUrl: string;
  /** NODE_ENV as set, or undefined: React Router's request handler treats unset as production. */
  declaredNodeEnv: Raw["NODE_ENV"] | undefined;
};

// Values that may appear in a message: never a secret or a URL (which carries credentials).
const ECHOED = new Set([
  "SMS_FROM",
  "SMS_MAX_PER_HOUR",
  "SMS_COUNTRIES",
  "NODE_ENV",
  "WEB_CONCURRENCY",
  "PORT",
  "API_PORT",
  "API_TIMEOUT_MS",
  "DB_POOL_SIZE",
  "TRUST_PROXY",
  "APP_TIMEZONE",
  "REMINDER_HOURS",
  "CODE_RESEND_SECONDS",
  "BOOKING_LIMIT_PER_DOCTOR",
  "BOOKING_LIMIT_TOTAL",
  "DEMO",
  "COOKIE_SECURE",
  "LOG_LEVEL",
]);

/** The validated configuration of `env`; throws a one-line StartupError naming every bad variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset (`FOO= npm start`, compose files with blank defaults).
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const result = schema.safeParse(clean);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const given = ECHOED.has(name) ? ` (got "${clean[name]}")` : "";
      return `${name} ${issue.message}${given}`;
    });
    throw new StartupError(`Configuration error: ${problems.join("; ")}`);
  }
  const c = result.data;
  const production = c.NODE_ENV === "production";
  const migrationsFolder = path.resolve(c.MIGRATIONS_DIR);
  let mailTransport: MailTransport | undefined;
  try {
    if (!c.API_URL && !c.API_OWNER_URL) mailTransport = mailTransportSetting(c);
  } catch (error) {
    throw new StartupError(`Configuration error: ${(error as Error).message}`);
  }
  if (production && c.SMS_URL && !c.PUBLIC_URL)
    throw new StartupError(
      "Configuration error: PUBLIC_URL is required in production with SMS_URL (the link in every text message)",
    );
  if (c.BOOKING_LIMIT_PER_DOCTOR > c.BOOKING_LIMIT_TOTAL)
    throw new StartupError(
      `Configuration error: BOOKING_LIMIT_PER_DOCTOR must be at most BOOKING_LIMIT_TOTAL (got ${c.BOOKING_LIMIT_PER_DOCTOR} and ${c.BOOKING_LIMIT_TOTAL})`,
    );
  return {
    ...c,
    production,
    smsTransport: c.SMS_URL ? "smpp" : production ? "none" : "console",
    publicUrl: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    webConcurrency: c.WEB_CONCURRENCY ?? (production ? os.availableParallelism() : 1),
    cookieSecure: c.COOKIE_SECURE ? c.COOKIE_SECURE === "true" : production,
    demo: c.DEMO ? c.DEMO === "1" : !production,
    pgliteDir: path.join(c.DATA_DIR, "db"),
    outboxDir: path.join(c.DATA_DIR, "outbox"),
    migrationsFolder,
    mailTransport,
    declaredNodeEnv: clean.NODE_ENV ? c.NODE_ENV : undefined,
  };
}

// Which way mail leaves (docs/mail.md): here, beside the other variables, so that checking it
// loads no mailer.
/**
 * MAIL_TRANSPORT: `smtp` (needs SMTP_URL), `outbox` (mail stays in the database outbox, nothing is
 * sent or printed, until a later start with SMTP), `console` (development: printed and written to
 * files). Unset: smtp with SMTP_URL, else console, except in production, which must choose.
 * Throws a one-line message that starts with the variable's name.
 */
export type MailTransport = "smtp" | "outbox" | "console";
export function mailTransportSetting(env: {
  MAIL_TRANSPORT?: string;
  SMTP_URL?: string;
  NODE_ENV?: string;
}): MailTransport {
  const production = env.NODE_ENV === "production";
  // `outbox` keeps mail until there is a way to send it: once SMTP_URL is given (a later start, or
  // the container image, whose default is outbox), the queued mail and the new mail are sent.
  const setting = env.MAIL_TRANSPORT === "outbox" && env.SMTP_URL ? "smtp" : env.MAIL_TRANSPORT;
  const chosen = setting || (env.SMTP_URL ? "smtp" : production ? undefined : "console");
  if (!chosen) {
    throw new Error(
      "SMTP_URL is required in production (or set MAIL_TRANSPORT=outbox to keep mail in the database without sending it)",
    );
  }
  if (chosen !== "smtp" && chosen !== "outbox" && chosen !== "console")
    throw new Error(`MAIL_TRANSPORT must be smtp, outbox or console (got "${chosen}")`);
  if (chosen === "smtp" && !env.SMTP_URL) throw new Error("MAIL_TRANSPORT smtp needs SMTP_URL");
  // The console transport prints verification and reset codes: never in production.
  if (chosen === "console" && production)
    throw new Error("MAIL_TRANSPORT console prints codes to the log and is refused in production");
  return chosen;
}

let cached: Config | undefined;

/** The process's configuration, read once. Pure: no file is touched (API modules and tests use it). */
export function config(): Config {
  return (cached ??= readConfig(process.env));
}

/** Tests that change the environment of their own process read it again through this. */
export function resetConfigForTests() {
  cached = undefined;
  secrets = undefined;
}

/**
 * What every entry point does before anything else: validate, create DATA_DIR when missing, and
 * check the migrations are there. Throws StartupError (one line).
 */
export function startupConfig(): Config {
  const c = config();
  try {
    fs.mkdirSync(c.DATA_DIR, { recursive: true });
    fs.accessSync(c.DATA_DIR, fs.constants.W_OK);
  } catch (error) {
    throw new StartupError(
      `Configuration error: DATA_DIR ${c.DATA_DIR} cannot be created or written (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  if (!fs.existsSync(path.join(c.migrationsFolder, "meta", "_journal.json"))) {
    throw new StartupError(
      `Configuration error: MIGRATIONS_DIR ${c.MIGRATIONS_DIR} holds no migrations (meta/_journal.json missing)`,
    );
  }
  return c;
}

let secrets: string[] | undefined;
const secretFile = (c: Config) => path.join(c.DATA_DIR, "session-secret");

/**
 * The session secrets, the first one signing: SESSION_SECRET, required in production. In
 * development without it, a random one kept in DATA_DIR/session-secret so that sessions survive
 * restarts; the web server writes it at start (keepDevelopmentSessionSecret), so that nothing is
 * written when a module is imported. Before that file exists (a test importing the web app's
 * modules), a random secret held in memory.
 */
function sessionSecrets(c: Config = config()): string[] {
  if (secrets) return secrets;
  if (c.SESSION_SECRET) return (secrets = c.SESSION_SECRET);
  if (c.production)
    throw new StartupError("Configuration error: SESSION_SECRET is required in production (32+ characters)");
  const file = secretFile(c);
  if (fs.existsSync(file)) return (secrets = [fs.readFileSync(file, "utf8").trim()]);
  return (secrets = [randomBytes(32).toString("hex")]);
}

/** The web server's start (server.ts) in development without SESSION_SECRET: the secret kept in DATA_DIR. */
export function keepDevelopmentSessionSecret(c: Config = config()) {
  if (c.SESSION_SECRET || c.production || fs.existsSync(secretFile(c))) return;
  const secret = randomBytes(32).toString("hex");
  fs.mkdirSync(c.DATA_DIR, { recursive: true });
  fs.writeFileSync(secretFile(c), secret, { mode: 0o600 });
  secrets = [secret];
}

/** The web tier's configuration with its session secrets, the first one signing (validated at start by server.ts). */
export function loadConfig(): Config & { sessionSecrets: string[] } {
  const c = config();
  return { ...c, sessionSecrets: sessionSecrets(c) };
}

/**
 * Runs an entry point's start: a StartupError (or a listening error such as a port in use) is
 * printed as one line and the process exits with 1; anything else is a bug and keeps its stack.
 */
export async function exitOnStartupError<T>(start: () => Promise<T> | T): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const message = startupMessage(error);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  }
}

/** The one-line message of an error the operator fixes, or undefined for a bug. */
export function startupMessage(error: unknown): string | undefined {
  if (error instanceof StartupError) return error.message;
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e?.syscall === "listen")
    return `Cannot listen on ${e.address ?? ""}:${e.port ?? ""}: ${e.code === "EADDRINUSE" ? "the port is in use" : e.code}`;
  if (e?.code === "ECONNREFUSED" || e?.code === "ENOTFOUND" || e?.code === "28P01" || e?.code === "3D000") {
    return `Cannot reach the database at DATABASE_URL: ${e.code === "28P01" ? "authentication failed" : e.code === "3D000" ? "no such database" : e.code}`;
  }
  return undefined;
}

/** Variables of the benchmarks (bench/), validated like the rest. */
const benchSchema = z.object({
  BENCH_SCALE: z.coerce.number().positive().default(1),
  // Runs or rounds of a benchmark; each says its default (30 for scale.ts and bookings.ts, 3 for lighthouse.ts).
  BENCH_RUNS: z.coerce.number().int().min(1).optional(),
  // Requests of each page whose server CPU time cpu.ts divides.
  BENCH_REQUESTS: z.coerce.number().int().min(10).default(300),
  // cpu.ts: rounds of the checkouts it compares, alternating.
  BENCH_ROUNDS: z.coerce.number().int().min(1).default(3),
  // cpu.ts: 1 runs the checkouts' servers side by side, a batch of each in turn (see cpu.ts).
  BENCH_SIDE_BY_SIDE: z.enum(["0", "1"]).default("0"),
  BENCH_EXPLAIN: z.enum(["0", "1"]).default("0"),
  BENCH_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  BENCH_SECONDS: z.coerce.number().positive().default(10),
  // Web workers of the server ssr.ts measures (its WEB_CONCURRENCY).
  BENCH_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  BENCH_PORT: port.optional(),
  BENCH_FILES: z.string().optional(),
  BENCH_JSON: z.string().optional(),
  // lighthouse.ts: the nginx its HTTPS front runs (bench/support.ts, startHttpsFront).
  NGINX_BIN: z.string().default("/usr/sbin/nginx"),
});

/**
 * The environment a child process (the production server a benchmark or a test starts) inherits:
 * this process's, with `extra` on top. Children read it through their own config.ts.
 */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** `env` read with a tool's own schema (benchmarks, build): empty counts as unset, a bad value is one line. */
function toolVariables<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const result = schema.safeParse(clean);
  if (!result.success) {
    throw new StartupError(
      `Configuration error: ${result.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; ")}`,
    );
  }
  return result.data;
}

export function benchConfig(env: NodeJS.ProcessEnv = process.env) {
  return toolVariables(benchSchema, env);
}

/** Variables of the build (vite.config.ts), validated like the rest. */
const buildSchema = z.object({
  // CLIENT_SOURCEMAP=1 npm run build: source maps of the browser build, to see what each chunk holds (ADR 0003).
  CLIENT_SOURCEMAP: z.enum(["0", "1"], "must be 0 or 1").default("0"),
});

export function buildConfig(env: NodeJS.ProcessEnv = process.env) {
  return { clientSourcemap: toolVariables(buildSchema, env).CLIENT_SOURCEMAP === "1" };
}
