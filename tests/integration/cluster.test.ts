// Several web workers (WEB_CONCURRENCY=2, server-cluster.ts) on the production build: both
// workers serve the signed-in pages, a session made through one is good on the other, a worker
// killed under load is replaced without a failed request once the new one listens, and the
// embedded database has exactly one owner, the first process, which the CLI still reaches and whose
// API the workers call over HTTP on loopback. On PostgreSQL (TEST_DATABASE_URL) each worker is a
// whole server and they share only the database.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionEnv } from "../../bench/support.ts";
import { runProcess as run } from "../../api/test/run-process.ts";
import { openScratchDatabase, type ScratchDatabase } from "../../api/test/scratch-database.ts";
import { matches } from "../../api/test/contract-match.ts";
import { specialityList } from "../../contract/reference.ts";
import { restartPolicy } from "../../server-cluster.ts";
import { freePort, startWebServer } from "../../app/test/web-server.ts";

/** The demo patient's session, through the real login form (with the login page's test cookie). */
async function signIn(url: string) {
  const body = new URLSearchParams({ email: "patient@example.com", password: "Demo1234!", role: "patient" });
  const res = await fetch(`${url}/login`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: url, cookie: "cookie_check=1" },
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session="));
  if (!cookie) throw new Error(`login failed: ${res.status}`);
  return cookie;
}

/** The pids of the processes that logged a request line for `page`. */
function servedBy(logs: string[], page: string) {
  const pids = new Set<number>();
  for (const line of logs) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line);
    if (entry.msg === "request" && entry.service === "web" && entry.route === page) pids.add(entry.pid);
  }
  return pids;
}

const workerPids = (logs: string[]) => logs.flatMap((line) => line.match(/web worker (\d+)\)/)?.[1] ?? []).map(Number);

async function pagesFromBothWorkers(app: Awaited<ReturnType<typeof startWebServer>>) {
  // The server answers once its first worker listens; the second may still be starting.
  for (let i = 0; i < 600 && new Set(workerPids(app.logs())).size < 2; i++)
    await new Promise((r) => setTimeout(r, 200));
  const cookie = await signIn(app.url);
  // A new connection per request: the cluster hands connections to its workers in turn.
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${app.url}/health/doctors`, { headers: { cookie, connection: "close" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Dr. Demo Doctor");
  }
  const workers = workerPids(app.logs());
  expect(new Set(workers).size).toBe(2);
  expect(workers).not.toContain(app.pid);
  const pids = servedBy(app.logs(), "/health/doctors");
  expect([...pids].sort()).toEqual([...new Set(workers)].sort());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Four clients load the signed-in page without pause (a new connection each time) while one worker
 * is killed with SIGKILL. The requests in flight on it may fail; the other worker serves meanwhile;
 * the primary starts a new worker, and every request started once it listens is answered.
 */
async function workerKilledUnderLoad(app: Awaited<ReturnType<typeof startWebServer>>) {
  await pagesFromBothWorkers(app);
  const before = new Set(workerPids(app.logs()));
  const [victim, survivor] = [...before];
  const cookie = await signIn(app.url);
  const outcomes: { startedAt: number; ok: boolean; error?: string }[] = [];
  let stop = false;
  const client = async () => {
    while (!stop) {
      const startedAt = Date.now();
      try {
        const res = await fetch(`${app.url}/health/doctors`, {
          headers: { cookie, connection: "close" },
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        outcomes.push({
          startedAt,
          ok: res.status === 200 && text.includes("Dr. Demo Doctor"),
          error: res.status === 200 ? undefined : String(res.status),
        });
      } catch (error) {
        outcomes.push({ startedAt, ok: false, error: String(error) });
      }
    }
  };
  const clients = Array.from({ length: 4 }, client);
  await sleep(1_500);
  process.kill(victim, "SIGKILL");
  let replacement: number | undefined;
  for (let i = 0; i < 600 && replacement === undefined; i++) {
    replacement = workerPids(app.logs()).find((pid) => !before.has(pid));
    if (replacement === undefined) await sleep(50);
  }
  // Seen in the log just after it listened: every request started from now on must be answered.
  const listenedAt = Date.now();
  expect(replacement, app.logs().join("\n")).toBeDefined();
  await sleep(4_000);
  stop = true;
  await Promise.all(clients);
  const afterwards = outcomes.filter((o) => o.startedAt >= listenedAt);
  expect(afterwards.length).toBeGreaterThan(10);
  expect(afterwards.filter((o) => !o.ok)).toEqual([]);
  // Only what was in flight on the killed worker may have failed (one request per client at most).
  expect(outcomes.filter((o) => !o.ok).length).toBeLessThanOrEqual(4);
  expect(app.logs().join("\n")).toMatch(new RegExp(`web worker ${victim} exited \\(SIGKILL\\); starting another`));
  // Both the survivor and the new worker served the page after the kill.
  const served = servedBy(app.logs(), "/health/doctors");
  expect(served).toContain(survivor);
  expect(served).toContain(replacement);
}

// Run once, in the run on the embedded database (the PostgreSQL run of npm test runs the one below).
describe.skipIf(process.env.TEST_DATABASE_URL)("WEB_CONCURRENCY=2 on the embedded database", () => {
  let app: Awaited<ReturnType<typeof startWebServer>>;
  beforeAll(async () => {
    app = await startWebServer({ env: { WEB_CONCURRENCY: "2" } });
  }, 300_000);
  afterAll(() => app?.stop());

  it("both workers serve the signed-in page, with a session made through either", async () => {
    await pagesFromBothWorkers(app);
  }, 120_000);

  it("a worker killed under load is replaced, and no request fails once the new one listens", async () => {
    await workerKilledUnderLoad(app);
  }, 180_000);

  it("the database has one owner, the first process: the lock names it, the workers open none, and the CLI works through it", async () => {
    const dataDir = app.dataDir;
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8"));
    expect(lock.pid).toBe(app.pid);
    expect(app.logs().join("\n")).toContain(`owned by this process (${app.pid})`);
    const listed = await run(["api/cli.ts", "list-pending"], productionEnv(await freePort(), dataDir));
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toContain("pending.doctor@example.com");
    // The public /api of a worker is the owner's API.
    const specialities = await fetch(`${app.url}/api/speciality`, { headers: { connection: "close" } });
    expect(specialities.status).toBe(200);
    expect(matches(specialityList, await specialities.json()).length).toBeGreaterThan(0);
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)("WEB_CONCURRENCY=2 on PostgreSQL", () => {
  let database: ScratchDatabase;
  let app: Awaited<ReturnType<typeof startWebServer>>;
  beforeAll(async () => {
    database = await openScratchDatabase({ serverUrl: process.env.TEST_DATABASE_URL, prefix: "cluster" });
    await database.close();
    app = await startWebServer({ env: { WEB_CONCURRENCY: "2", DATABASE_URL: database.url! } });
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it("both workers serve the signed-in page, each with its own API on the shared database", async () => {
    await pagesFromBothWorkers(app);
    expect(fs.existsSync(path.join(app.dataDir, "db.lock"))).toBe(false);
  }, 120_000);

  it("a worker killed under load is replaced, and no request fails once the new one listens", async () => {
    await workerKilledUnderLoad(app);
  }, 180_000);
});

describe("restarting a worker that exited", () => {
  it("replaces a worker that served a while at once, and waits longer after each quick exit in a row", () => {
    const policy = restartPolicy({ healthyAfterMs: 30_000, firstDelayMs: 1_000, maxDelayMs: 30_000 });
    expect(policy.delayAfterExit(3_600_000)).toBe(0);
    expect([1, 2, 3, 4, 5, 6, 7].map(() => policy.delayAfterExit(500))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    // A worker that then lives past the healthy mark resets the count.
    expect(policy.delayAfterExit(60_000)).toBe(0);
    expect(policy.delayAfterExit(10)).toBe(1_000);
  });
});
