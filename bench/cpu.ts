// Server CPU time per page (docs/performance.md): the server process's user + system time over a
// fixed number of requests of each benchmarked page, divided by that number. Unlike requests/s, it
// hardly depends on what else the machine runs, so a change can be measured on a shared machine:
// give it the checkouts to compare (each built) and it alternates them, round after round.
//   node bench/cpu.ts                      this checkout
//   node bench/cpu.ts /tmp/before .        before and after, alternating (BENCH_ROUNDS rounds)
// Linux only (it reads /proc/<pid>/stat). One web process (WEB_CONCURRENCY=1), 4 connections.
// BENCH_SIDE_BY_SIDE=1: every checkout's server runs at once and each round measures a batch of
// BENCH_REQUESTS of each page on each server in turn (the order reversed every other round), so
// the checkouts meet the same load within seconds of each other; one server after the other, a
// shared machine's load drifted between them by more than a change gains (bench/README.md,
// 2026-11-24 15:25-16:05). Reported per checkout and page: the rounds and their median.
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { benchConfig } from "../config.ts";
import { login, startProductionApp } from "./support.ts";

const REQUESTS = benchConfig().BENCH_REQUESTS;
const ROUNDS = benchConfig().BENCH_ROUNDS;
const checkouts = process.argv.length > 2 ? process.argv.slice(2).map((dir) => path.resolve(dir)) : [process.cwd()];

/** User + system CPU seconds of process `pid` so far (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function requests(url: string, cookie: string, amount: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: 4, amount, headers: { cookie } }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

type App = Awaited<ReturnType<typeof startProductionApp>>;

async function pagesOf(app: App) {
  return [
    {
      name: "findDoctorPage",
      url: `${app.base}/health/doctors`,
      cookie: await login(app.base, "patient@example.com", "patient"),
    },
    {
      name: "doctorAppointmentsPage",
      url: `${app.base}/doctor/appointments`,
      cookie: await login(app.base, "doctor@example.com", "doctor"),
    },
  ];
}

/** The server's CPU ms per page answered over `amount` requests of `page`. */
async function measure(app: App, page: { url: string; cookie: string }, amount: number) {
  const before = cpuSeconds(app.pid);
  const result = await requests(page.url, page.cookie, amount);
  // On a loaded machine a request may time out: the time is divided among the pages answered.
  const answered = result["2xx"];
  if (!answered)
    throw new Error(`${page.url}: no page answered (${result.errors} errors, ${result.non2xx} non-2xx answers)`);
  if (answered < amount)
    console.error(`${page.url}: ${amount - answered} of ${amount} requests not answered with a page`);
  return ((cpuSeconds(app.pid) - before) * 1000) / answered;
}

const results: Record<string, Record<string, number[]>> = {};
function record(round: number, checkout: string, page: string, ms: number) {
  ((results[checkout] ??= {})[page] ??= []).push(Number(ms.toFixed(2)));
  // As it goes: a long run on a loaded machine shows its figures even if it is stopped.
  console.error(`round ${round + 1} ${checkout} ${page}: ${ms.toFixed(2)} ms`);
}

if (benchConfig().BENCH_SIDE_BY_SIDE === "1") {
  const apps: App[] = [];
  try {
    for (const checkout of checkouts) apps.push(await startProductionApp({ cwd: checkout }));
    const pages = await Promise.all(apps.map(pagesOf));
    // Warm-up: JIT, reference lists (a server's first hundreds of pages cost more).
    for (const appPages of pages) for (const page of appPages) await requests(page.url, page.cookie, 500);
    for (let round = 0; round < ROUNDS; round++) {
      for (const p of pages[0]!.keys()) {
        const order = [...apps.keys()];
        if (round % 2) order.reverse();
        for (const i of order)
          record(round, checkouts[i]!, pages[i]![p]!.name, await measure(apps[i]!, pages[i]![p]!, REQUESTS));
      }
    }
  } finally {
    for (const app of apps) await app.stop();
  }
} else {
  for (let round = 0; round < ROUNDS; round++) {
    for (const checkout of checkouts) {
      const app = await startProductionApp({ cwd: checkout });
      try {
        for (const page of await pagesOf(app)) {
          await requests(page.url, page.cookie, 30); // warm-up: JIT, reference lists
          record(round, checkout, page.name, await measure(app, page, REQUESTS));
        }
      } finally {
        await app.stop();
      }
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medians = Object.fromEntries(
  Object.entries(results).map(([checkout, pages]) => [
    checkout,
    Object.fromEntries(Object.entries(pages).map(([page, ms]) => [page, median(ms)])),
  ]),
);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      requests: REQUESTS,
      rounds: ROUNDS,
      sideBySide: benchConfig().BENCH_SIDE_BY_SIDE === "1",
      cpuMsPerPage: results,
      medians,
    },
    null,
    2,
  ),
);
