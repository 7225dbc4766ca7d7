// Server-side rendering throughput (docs/architecture.md, Budgets): a signed-in patient's find-a-doctor page
// (10 doctors, through the embedded upstream API) and a signed-in doctor's appointments page (their
// list, through the same API), against a bare node:http server measured in the same run on the same
// machine. Run: npm run build && node bench/ssr.ts
import { createServer } from "node:http";
import os from "node:os";
import autocannon from "autocannon";
import { benchConfig } from "../config.ts";
import { freePort, login, startProductionApp } from "./support.ts";

const CONNECTIONS = 20;
const DURATION = benchConfig().BENCH_SECONDS;
const WORKERS = benchConfig().BENCH_WORKERS;

function run(url: string, headers: Record<string, string> = {}) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const summary = (r: autocannon.Result) => ({
  requestsPerSecond: Math.round(r.requests.average),
  p99Ms: r.latency.p99,
  errors: r.errors + r.non2xx,
});

const bare = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end("ok");
});
// Free ports chosen by the system: several people may run benchmarks on one machine.
const barePort = await freePort();
bare.listen(barePort, "127.0.0.1");

// Inherits DATABASE_URL or API_URL, to measure those set-ups too.
const app = await startProductionApp({ env: { WEB_CONCURRENCY: String(WORKERS) } });

try {
  const base = app.base;
  const pages = [
    { name: "findDoctorPage", url: `${base}/health/doctors`, cookie: await login(base, "patient@example.com", "patient") },
    { name: "doctorAppointmentsPage", url: `${base}/doctor/appointments`, cookie: await login(base, "doctor@example.com", "doctor") },
  ];
  for (const page of pages) {
    const answer = await fetch(page.url, { headers: { cookie: page.cookie } });
    if (answer.status !== 200) throw new Error(`${page.url} answered ${answer.status}`);
    await run(page.url, { cookie: page.cookie }); // warm-up
  }
  const bareResult = summary(await run(`http://127.0.0.1:${barePort}/`));
  const report: Record<string, unknown> = {
    date: new Date().toISOString().slice(0, 10),
    connections: CONNECTIONS,
    seconds: DURATION,
    loadAverage: Number(os.loadavg()[0].toFixed(1)),
    webWorkers: WORKERS,
    bare: bareResult,
  };
  for (const page of pages) {
    const result = summary(await run(page.url, { cookie: page.cookie }));
    report[page.name] = { ...result, ratioToBare: Number((result.requestsPerSecond / bareResult.requestsPerSecond).toFixed(4)) };
  }
  console.log(JSON.stringify(report, null, 2));
} finally {
  await app.stop();
  bare.close();
}
