// The README's promise of several web instances behind a load balancer against one PostgreSQL, run
// for real: the API alone (`node api/main.ts`) and two web instances of the production build
// (`node server.ts`, API_URL set) started at the same moment, behind nginx from Debian's packages
// as the load balancer, on a private PostgreSQL cluster (TEST_DATABASE_URL).
//
// Run by tests/run-all.sh after the build: npx vitest run --config tests/scale-out/vitest.config.ts
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedReferenceData } from "../../api/db/reference.ts";
import {
  appointments,
  doctorSpecialities,
  doctors,
  mailOutbox,
  patients,
  specialities,
  users,
} from "../../api/db/schema.ts";
import { hashPassword } from "../../api/auth/password.ts";
import { zonedInstant } from "../../api/time.ts";
import { openScratchDatabase, type ScratchDatabase } from "../../api/test/scratch-database.ts";
// Open days the default working plan offers (docs/product.md, Availability).
import { futureDate } from "../../api/test/harness.ts";
import { CHROMIUM_PATH } from "../chromium.ts";

const NGINX = process.env.NGINX_BIN ?? "/usr/sbin/nginx";
const PASSWORD = "Scale-Out-1";
const PATIENTS = 100;
const root = path.resolve(import.meta.dirname, "../..");

let database: ScratchDatabase;
let work: string;
let base: string;
const children: Record<string, ChildProcess> = {};
const output: Record<string, string> = {};
let webPorts: number[] = [];
let apiPort: number;
let doctorId: string;
const emails: string[] = [];
const sessionCookies: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function start(name: string, command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  output[name] ??= "";
  child.stdout!.on("data", (chunk) => (output[name] += chunk));
  child.stderr!.on("data", (chunk) => (output[name] += chunk));
  children[name] = child;
  return child;
}

/** Web instance i+1 of the production build on `port`, calling the API alone. */
function startWeb(i: number, port: number, apiPort: number) {
  return start(`web-${i + 1}`, process.execPath, ["server.ts"], {
    NODE_ENV: "production",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "info",
    COOKIE_SECURE: "false",
    DEMO: "0",
    PORT: String(port),
    HOST: "127.0.0.1",
    API_URL: `http://127.0.0.1:${apiPort}`,
    // 100 bookings queue on one slot's row lock on a loaded machine: correctness, not speed, here.
    API_TIMEOUT_MS: "60000",
    SESSION_SECRET: "scale-out-session-secret-0123456789abcdef",
    DATA_DIR: path.join(work, `web-${i + 1}`),
  });
}

async function waitFor(url: string, name: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (children[name] && children[name].exitCode !== null) throw new Error(`${name} exited: ${output[name]}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not answer ${url}: ${output[name]}`);
}

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl)
    throw new Error("the scale-out suite needs TEST_DATABASE_URL (a PostgreSQL server: tests/pg-cluster.sh)");
  database = await openScratchDatabase({ serverUrl, prefix: "scale" });
  const { db } = database;
  await seedReferenceData(db);
  const passwordHash = await hashPassword(PASSWORD);
  const [doctor] = await db
    .insert(users)
    .values({
      email: "scale-doctor@example.test",
      username: "Dr Scale",
      passwordHash,
      role: "doctor",
      otpVerified: true,
    })
    .returning();
  doctorId = doctor.id;
  await db.insert(doctors).values({
    userId: doctor.id,
    serialNumber: "MED-SCALE",
    contact: "+237 600 000 000",
    dutyHospital: "Hôpital Laquintinie",
    startYear: 2015,
    verification: "verified",
    verifiedAt: new Date(),
  });
  const [gp] = await db.select().from(specialities).limit(1);
  await db.insert(doctorSpecialities).values({ doctorId: doctor.id, specialityId: gp.id });
  for (let i = 0; i < PATIENTS; i++) emails.push(`scale-patient-${i}@example.test`);
  const rows = await db
    .insert(users)
    .values(
      emails.map((email, i) => ({
        email,
        username: `Patient ${i}`,
        phone: "0612345678",
        passwordHash,
        role: "patient" as const,
        otpVerified: true,
      })),
    )
    .returning();
  await db.insert(patients).values(rows.map((row) => ({ userId: row.id })));

  work = mkdtempSync(path.join(os.tmpdir(), "scale-out-"));
  apiPort = await freePort();
  const [web1, web2, proxyPort] = [await freePort(), await freePort(), await freePort()];
  webPorts = [web1, web2];
  // LOG_LEVEL info: the last test reads every line the three processes wrote.
  // One process per web instance: the instances are what this suite scales (and SIGKILLs).
  const common = { NODE_ENV: "production", LOG_LEVEL: "info", COOKIE_SECURE: "false", DEMO: "0", WEB_CONCURRENCY: "1" };
  // The API and both web instances at the same moment, as a rollout or a restart would.
  // Mail stays in the database outbox: these journeys send none, and production wants a transport.
  start("api", process.execPath, ["api/main.ts"], {
    ...common,
    MAIL_TRANSPORT: "outbox",
    DATABASE_URL: database.url!,
    API_PORT: String(apiPort),
    DATA_DIR: path.join(work, "api"),
  });
  for (const [i, port] of webPorts.entries()) startWeb(i, port, apiPort);
  const conf = path.join(work, "nginx.conf");
  writeFileSync(
    conf,
    `pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi; uwsgi_temp_path ${work}/uwsgi; scgi_temp_path ${work}/scgi;
  upstream web { ${webPorts.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join(" ")} keepalive 32; }
  server {
    listen 127.0.0.1:${proxyPort};
    location / {
      proxy_pass http://web;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 http_503;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
  );
  start("nginx", NGINX, ["-c", conf, "-p", work, "-g", "daemon off;"], {});
  base = `http://127.0.0.1:${proxyPort}`;
  await waitFor(`http://127.0.0.1:${apiPort}/healthz`, "api");
  for (const [i, port] of webPorts.entries()) await waitFor(`http://127.0.0.1:${port}/readyz`, `web-${i + 1}`);
  await waitFor(`${base}/healthz`, "nginx");
}, 180_000);

afterAll(async () => {
  for (const child of Object.values(children)) if (child.exitCode === null) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const child of Object.values(children)) if (child.exitCode === null) child.kill("SIGKILL");
  await database?.close();
  await database?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Logs in through `origin` (nginx, or one instance) with the plain form; returns the session cookie. */
async function login(origin: string, email: string) {
  const res = await fetch(`${origin}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD, role: "patient" }),
    // The login page's test cookie, as a browser that keeps cookies brings it back.
    headers: { cookie: "cookie_check=1" },
    redirect: "manual",
  });
  expect(res.status, `login of ${email}`).toBe(302);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  sessionCookies.push(...cookies.map((c) => c.slice(c.indexOf("=") + 1)));
  return cookies.join("; ");
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

describe("two web instances behind nginx, one API, one PostgreSQL", () => {
  it("spreads requests over both instances", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) seen.add((await fetch(`${base}/login`)).headers.get("x-upstream") ?? "");
    expect([...seen].sort()).toEqual(webPorts.map((p) => `127.0.0.1:${p}`).sort());
  });

  it("left no table without statistics: the API analysed at start what PostgreSQL's autovacuum never would (api/db/upkeep.ts)", async () => {
    // The reference data and the one doctor are far under autovacuum's 50 changed rows.
    const { rows } = (await database.db.execute(
      sql`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.reltuples < 0`,
    )) as unknown as { rows: { relname: string }[] };
    expect(rows.map((r) => r.relname)).toEqual([]);
  });

  it("works over plain HTTP with COOKIE_SECURE=false: no upgrade to https, no HSTS, no Secure cookie", async () => {
    const page = await fetch(`${base}/login`);
    expect(page.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
    expect(page.headers.get("strict-transport-security")).toBeNull();
    const res = await fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: emails[99], password: PASSWORD, role: "patient" }),
      headers: { cookie: "cookie_check=1" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    for (const cookie of res.headers.getSetCookie()) expect(cookie).not.toMatch(/;\s*secure/i);
  });

  it("keeps a patient logged in through one instance logged in on the other", async () => {
    const [one, other] = webPorts.map((p) => `http://127.0.0.1:${p}`);
    const cookie = await login(one, emails[0]);
    const page = await fetch(`${other}/health/doctors`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Patient 0");
    // And without the cookie, the other instance sends to the login page.
    expect((await fetch(`${other}/health/doctors`, { redirect: "manual" })).status).toBe(302);
  });

  it("throttles a guesser spread over both instances as one: the sixth wrong password is refused, whichever instance takes it", async () => {
    const email = "scale-throttled@example.test";
    const answers: { status: number; upstream: string }[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${base}/login`, {
        method: "POST",
        body: new URLSearchParams({ email, password: "not-the-password", role: "patient" }),
        headers: { cookie: "cookie_check=1" },
        redirect: "manual",
      });
      answers.push({ status: res.status, upstream: res.headers.get("x-upstream") ?? "" });
    }
    // The tries went through both instances, which keep no counters of their own (the counters are
    // rows in PostgreSQL): each alone saw three or four, fewer than the limit of five.
    expect(new Set(answers.map((a) => a.upstream)).size).toBe(2);
    expect(answers.slice(0, 5).every((a) => a.status !== 429)).toBe(true);
    expect(answers.slice(5).map((a) => a.status)).toEqual([429, 429]);
  });

  it("queues one verification mail for a registration made through either instance", async () => {
    const email = "scale-newcomer@example.test";
    const res = await fetch(`${base}/register`, {
      method: "POST",
      body: new URLSearchParams({
        role: "patient",
        username: "Scale Newcomer",
        email,
        phone: "670000001",
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/verification/);
    const queued = await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
    expect(queued).toHaveLength(1);
  });

  it("gives one slot to exactly one of 100 patients booking it at once over both instances", async () => {
    const cookies = await pool(
      emails.map((email) => () => login(base, email)),
      8,
    );
    const date = futureDate(7);
    const answers = await Promise.all(
      cookies.map(async (cookie) => {
        const res = await fetch(`${base}/health/doctors`, {
          method: "POST",
          headers: { cookie },
          body: new URLSearchParams({ doctorId, type: "online", date, time: "10:00", idempotencyKey: randomUUID() }),
          redirect: "manual",
        });
        return { status: res.status, upstream: res.headers.get("x-upstream") };
      }),
    );
    const counts: Record<number, number> = {};
    for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
    expect(counts).toEqual({ 302: 1, 409: PATIENTS - 1 });
    expect(new Set(answers.map((a) => a.upstream)).size).toBe(2);
    const booked = await database.db.select().from(appointments).where(eq(appointments.doctorId, doctorId));
    expect(booked).toHaveLength(1);
    expect(booked[0].startsAt.toISOString()).toBe(zonedInstant(date, "10:00").toISOString());
  });

  it("carries a patient's booking journey in the browser through nginx", async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/login`);
      await page.getByRole("radio", { name: "Patient" }).check();
      await page.getByLabel("Email").fill(emails[80]);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await page.waitForURL(/\/health\/doctors/);
      const date = futureDate(28);
      await page.goto(`${base}/health/doctors?book=${doctorId}&date=${date}`);
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("radio", { name: "Online" }).check();
      await dialog.locator('input[name="time"]:not([disabled])').first().check();
      await dialog.getByRole("button", { name: "Book appointment" }).click();
      await page.getByText("Appointment created successfully!").waitFor();
      await page.goto(`${base}/health/doctors/my-appointments`);
      await page.getByRole("listitem").filter({ hasText: "Dr Scale" }).first().waitFor();
    } finally {
      await browser.close();
    }
  });

  it("drains an instance stopped with SIGTERM under load: no request fails", async () => {
    const cookie = await login(base, emails[1]);
    let stop = false;
    const failures: string[] = [];
    let done = 0;
    const clients = Array.from({ length: 6 }, async (_, c) => {
      while (!stop) {
        const url = c % 2 ? `${base}/health/doctors` : `${base}/login`;
        try {
          const res = await fetch(url, { headers: c % 2 ? { cookie } : {}, redirect: "manual" });
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`${url}: ${res.status}`);
        } catch (error) {
          failures.push(`${url}: ${(error as Error).message}`);
        }
        done++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const web1 = children["web-1"];
    const exited = new Promise<number | null>((resolve) => web1.once("exit", (code) => resolve(code)));
    web1.kill("SIGTERM");
    const code = await exited;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop = true;
    await Promise.all(clients);
    expect(code).toBe(0);
    expect(failures).toEqual([]);
    expect(done).toBeGreaterThan(20);
  });

  it("loses no acknowledged booking when an instance is killed with SIGKILL under load", async () => {
    // web-1 again (the previous test stopped it), then patients booking distinct slots through nginx.
    startWeb(0, webPorts[0], apiPort);
    await waitFor(`http://127.0.0.1:${webPorts[0]}/readyz`, "web-1");
    const bookers = emails.slice(2, 62);
    const cookies = await pool(
      bookers.map((email) => () => login(base, email)),
      8,
    );
    const slots = ["09:00", "11:00", "14:00", "15:00"];
    const attempts = cookies.map((cookie, i) => ({
      cookie,
      date: futureDate(10 + Math.floor(i / slots.length)),
      time: slots[i % slots.length],
    }));
    // The kill comes after the tenth answer, with six bookings in flight: counted, not timed, so a
    // fast machine does not finish every booking before it.
    let answered = 0;
    let kill: () => void = () => {};
    const killed = new Promise<number>((resolve) => {
      kill = () => {
        children["web-1"].kill("SIGKILL");
        resolve(answered);
      };
    });
    const answers = await pool(
      attempts.map((a) => async () => {
        try {
          const res = await fetch(`${base}/health/doctors`, {
            method: "POST",
            headers: { cookie: a.cookie },
            body: new URLSearchParams({
              doctorId,
              type: "online",
              date: a.date,
              time: a.time,
              idempotencyKey: randomUUID(),
            }),
            redirect: "manual",
          });
          return { ...a, status: res.status };
        } catch {
          return { ...a, status: 0 };
        } finally {
          if (++answered === 10) kill();
        }
      }),
      6,
    );
    // The kill came in the middle of the bookings, not after them.
    expect(await killed).toBeLessThan(attempts.length);
    const acknowledged = answers.filter((a) => a.status === 302);
    expect(acknowledged.length).toBeGreaterThan(0);
    const rows = await database.db.select().from(appointments).where(eq(appointments.doctorId, doctorId));
    const stored = new Set(rows.map((r) => r.startsAt.toISOString()));
    for (const a of acknowledged)
      expect(stored.has(zonedInstant(a.date, a.time).toISOString()), `${a.date} ${a.time}`).toBe(true);
    // Whatever was not acknowledged failed visibly (a 502 from nginx), never as a false success.
    for (const a of answers) expect([302, 502]).toContain(a.status);
  });

  it("logged one JSON line per request in every process, sharing the request id between a web instance and the API, and never a password, a session cookie or an e-mail address", () => {
    const lines = (name: string) =>
      output[name]
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
    const web = [...lines("web-1"), ...lines("web-2")].filter((l) => l.msg === "request");
    const api = lines("api").filter((l) => l.msg === "request");
    expect(web.filter((l) => l.method === "POST" && l.route === "/health/doctors").length).toBeGreaterThanOrEqual(
      PATIENTS,
    );
    const logins = web.filter((l) => l.method === "POST" && l.route === "/login");
    expect(logins.length).toBeGreaterThanOrEqual(PATIENTS);
    const apiIds = new Set(api.map((l) => l.requestId));
    expect(logins.every((l) => apiIds.has(l.requestId))).toBe(true);
    const everything = Object.values(output).join("\n");
    expect(everything).not.toContain(PASSWORD);
    for (const cookie of sessionCookies) expect(everything).not.toContain(cookie);
    for (const email of emails) expect(everything).not.toContain(email);
  });
});
