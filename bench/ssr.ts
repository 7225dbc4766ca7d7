// Server-side rendering throughput (docs/architecture.md, Budgets): a signed-in patient's
// find-a-doctor page (10 doctors) and a signed-in doctor's /doctor/appointments, as a share of what
// a bare node:http server answering "ok" serves on the same machine in the same run.
//
// Each server runs in a process of its own, the bare one too: autocannon (the load generator, in
// this process) takes much of a core, and a bare server sharing its event loop would serve far
// less than it can, flattering the ratio (issue 24).
//
// Run: BENCH_WORKERS=2 npm run bench -- ssr
// It measures the embedded database, then PostgreSQL on a private cluster (tests/pg-cluster.sh;
// skipped with a note when no PostgreSQL server binaries are installed), or on BENCH_DATABASE_URL when
// set. Prints one markdown table, ready to paste into bench/README.md.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchConfig } from "../config.ts";
import { freePort, login, startProductionApp } from "./support.ts";

const CONNECTIONS = 20;
const DURATION = benchConfig().BENCH_SECONDS;
const WORKERS = benchConfig().BENCH_WORKERS;
// The bar of issue 24 (find-a-doctor's share of bare, two web workers, 20 connections).
const BAR = { embedded: 0.0055, postgresql: 0.008, p99Ms: 150 };

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  /** CPU ms per answered request: the server's processes, PostgreSQL's, the load generator's (Linux only). */
  cpu?: { server: number; postgres: number; load: number };
}

/**
 * CPU ms (user + system) so far of each process, by pid, read from /proc/<pid>/stat (clock ticks
 * of 1/100 s), with its parent's pid and its name. Empty where there is no /proc.
 */
function processCpu(): Map<number, { ppid: number; name: string; ms: number }> {
  const found = new Map<number, { ppid: number; name: string; ms: number }>();
  if (!existsSync("/proc/self/stat")) return found;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.set(Number(entry), { ppid: Number(fields[1]), name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {} // a process that ended meanwhile
  }
  return found;
}

/** The CPU ms of the server (the process `pid` and its children) and of every postgres process. */
function serverCpu(pid: number) {
  const all = processCpu();
  let server = 0;
  let postgres = 0;
  for (const [id, p] of all) {
    if (id === pid || p.ppid === pid) server += p.ms;
    else if (p.name === "postgres") postgres += p.ms;
  }
  return { server, postgres, known: all.size > 0 };
}

/**
 * `url` under load for DURATION seconds; with `serverPid`, where the machine's CPU went per request
 * (a private PostgreSQL cluster's processes count as PostgreSQL; a backend that ended during the
 * run is not counted).
 */
function measure(url: string, headers: Record<string, string> = {}, serverPid?: number) {
  const before = serverPid ? serverCpu(serverPid) : undefined;
  const load = process.cpuUsage();
  return new Promise<Figures>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, r) => {
      if (error) return reject(error);
      const loadUsage = process.cpuUsage(load);
      const after = serverPid ? serverCpu(serverPid) : undefined;
      const answered = Math.max(1, r.requests.total);
      resolve({
        requestsPerSecond: Math.round(r.requests.average),
        p99Ms: r.latency.p99,
        errors: r.errors + r.non2xx,
        cpu:
          before?.known && after
            ? {
                server: (after.server - before.server) / answered,
                postgres: Math.max(0, after.postgres - before.postgres) / answered,
                load: (loadUsage.user + loadUsage.system) / 1000 / answered,
              }
            : undefined,
      });
    });
  });
}

/** The bare server, in a process of its own on a free port. */
async function startBare() {
  const port = await freePort();
  const source = `require("node:http").createServer((_q, s) => { s.writeHead(200, { "content-type": "text/plain" }); s.end("ok"); }).listen(${port}, "127.0.0.1", () => process.stdout.write("up\\n"));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    },
  };
}

interface Row {
  setup: string;
  server: string;
  figures: Figures;
  share?: number;
  bar?: number;
}

/** One set-up: the app on that database, then bare, then each page, one after the other. */
async function measureSetup(setup: "embedded" | "postgresql", env: Record<string, string>): Promise<Row[]> {
  const app = await startProductionApp({ env: { WEB_CONCURRENCY: String(WORKERS), API_URL: "", ...env } });
  const bare = await startBare();
  try {
    const pages = [
      {
        name: "find-a-doctor",
        url: `${app.base}/health/doctors`,
        cookie: await login(app.base, "patient@example.com", "patient"),
        bar: BAR[setup],
      },
      {
        name: "/doctor/appointments",
        url: `${app.base}/doctor/appointments`,
        cookie: await login(app.base, "doctor@example.com", "doctor"),
      },
    ];
    for (const page of pages) {
      const answer = await fetch(page.url, { headers: { cookie: page.cookie } });
      if (answer.status !== 200) throw new Error(`${page.url} answered ${answer.status}`);
      await measure(page.url, { cookie: page.cookie }); // warm-up
    }
    const bareFigures = await measure(bare.url);
    const rows: Row[] = [{ setup, server: "bare node:http", figures: bareFigures }];
    for (const page of pages) {
      const figures = await measure(page.url, { cookie: page.cookie }, app.pid);
      rows.push({
        setup,
        server: page.name,
        figures,
        share: figures.requestsPerSecond / bareFigures.requestsPerSecond,
        bar: page.bar,
      });
    }
    return rows;
  } finally {
    await bare.stop();
    await app.stop();
  }
}

/** PostgreSQL: BENCH_DATABASE_URL when given, else a private cluster for this run (undefined: none installed). */
async function withPostgres(run: (url: string) => Promise<Row[]>): Promise<Row[] | undefined> {
  const given = benchConfig().BENCH_DATABASE_URL;
  if (given) return run(given);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pg-"));
  let url: string;
  try {
    url = execFileSync("bash", ["tests/pg-cluster.sh", "start", dir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if ((error as { status?: number }).status === 3) return undefined;
    throw error;
  }
  try {
    return await run(url);
  } finally {
    execFileSync("bash", ["tests/pg-cluster.sh", "stop", dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
const cpuOf = ({ cpu }: Figures) =>
  cpu ? [cpu.server, cpu.postgres, cpu.load].map((ms) => ms.toFixed(2)).join(", ") : "";

function table(rows: Row[]) {
  const lines = [
    "| database | server | requests/s | p99 ms | errors | share of bare | bar | CPU ms a page: server, PostgreSQL, load generator |",
    "|---|---|---:|---:|---:|---:|---|---|",
  ];
  for (const { setup, server, figures, share, bar } of rows) {
    const met =
      bar === undefined
        ? ""
        : share! >= bar && figures.p99Ms < BAR.p99Ms && figures.errors === 0
          ? `met (≥ ${percent(bar)})`
          : `MISSED (≥ ${percent(bar)})`;
    lines.push(
      `| ${setup} | ${server} | ${figures.requestsPerSecond} | ${figures.p99Ms} | ${figures.errors} | ${share === undefined ? "" : percent(share)} | ${met} | ${cpuOf(figures)} |`,
    );
  }
  return lines.join("\n");
}

const started = new Date();
const loadAtStart = os.loadavg()[0].toFixed(1);
const rows = await measureSetup("embedded", { DATABASE_URL: "" });
const postgres = await withPostgres((url) => measureSetup("postgresql", { DATABASE_URL: url }));
if (postgres) rows.push(...postgres);

console.log(
  `${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} cores, Node ${process.versions.node}, ` +
    `${WORKERS} web worker(s), ${CONNECTIONS} connections, ${DURATION} s a run, load average ${loadAtStart} at the start, ${os.loadavg()[0].toFixed(1)} at the end` +
    `${postgres ? "" : " (PostgreSQL skipped: no server binaries)"}\n`,
);
console.log(table(rows));
console.log(`\nbar: find-a-doctor's share of bare at least the figure shown, p99 under ${BAR.p99Ms} ms, no error.`);
console.log(
  `CPU: user + system ms per answered request, from /proc: the server's processes (web workers and the embedded database's owner), the machine's postgres processes, this load generator. ${os.cpus().length} cores give at most ${os.cpus().length * 1000} ms a second.`,
);
