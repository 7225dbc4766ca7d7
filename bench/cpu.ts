// Server CPU time per page (docs/performance.md): the server process's user + system time over a
// fixed number of requests of each benchmarked page, divided by that number. Unlike requests/s, it
// hardly depends on what else the machine runs, so a change can be measured on a shared machine:
// give it the checkouts to compare (each built) and it alternates them, round after round.
//   node bench/cpu.ts                      this checkout
//   node bench/cpu.ts /tmp/before .        before and after, alternating (BENCH_ROUNDS rounds)
// Linux only (it reads /proc/<pid>/stat). One web process (WEB_CONCURRENCY=1), 4 connections.
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
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function requests(url: string, cookie: string, amount: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: 4, amount, headers: { cookie } }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const results: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const checkout of checkouts) {
    const app = await startProductionApp({ cwd: checkout });
    try {
      const pages = [
        { name: "findDoctorPage", url: `${app.base}/health/doctors`, cookie: await login(app.base, "patient@example.com", "patient") },
        { name: "doctorAppointmentsPage", url: `${app.base}/doctor/appointments`, cookie: await login(app.base, "doctor@example.com", "doctor") },
      ];
      for (const page of pages) {
        await requests(page.url, page.cookie, 30); // warm-up: JIT, reference lists
        const before = cpuSeconds(app.pid);
        const result = await requests(page.url, page.cookie, REQUESTS);
        // On a loaded machine a request may time out: the time is divided among the pages answered.
        const answered = result["2xx"];
        if (!answered) throw new Error(`${page.url}: no page answered (${result.errors} errors, ${result.non2xx} non-2xx answers)`);
        if (answered < REQUESTS) console.error(`${page.url}: ${REQUESTS - answered} of ${REQUESTS} requests not answered with a page`);
        const ms = ((cpuSeconds(app.pid) - before) * 1000) / answered;
        ((results[checkout] ??= {})[page.name] ??= []).push(Number(ms.toFixed(1)));
        // As it goes: a long run on a loaded machine shows its figures even if it is stopped.
        console.error(`round ${round + 1} ${checkout} ${page.name}: ${ms.toFixed(1)} ms`);
      }
    } finally {
      await app.stop();
    }
  }
}
console.log(JSON.stringify({ date: new Date().toISOString(), requests: REQUESTS, rounds: ROUNDS, cpuMsPerPage: results }, null, 2));
