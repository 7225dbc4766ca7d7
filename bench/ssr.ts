// Server-side rendering throughput (DESIGN.md section 7): a signed-in patient's find-a-doctor page
// (10 doctors, through the embedded upstream API), against a bare node:http server measured in the
// same run on the same machine. Run: npm run build && node bench/ssr.ts
import { createServer } from "node:http";
import autocannon from "autocannon";
import { benchConfig } from "../config.ts";
import { login, startProductionApp } from "./support.ts";

const CONNECTIONS = 20;
const DURATION = benchConfig().BENCH_SECONDS;
const APP_PORT = 3190;
const BARE_PORT = 3191;

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
}).listen(BARE_PORT, "127.0.0.1");

// Inherits DATABASE_URL or API_URL, to measure those set-ups too.
const app = await startProductionApp({ port: APP_PORT });

try {
  const base = app.base;
  const cookie = await login(base, "patient@example.com", "patient");
  const page = await fetch(`${base}/health/doctors`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`find-a-doctor answered ${page.status}`);
  await run(`${base}/health/doctors`, { cookie }); // warm-up
  const bareResult = summary(await run(`http://127.0.0.1:${BARE_PORT}/`));
  const appResult = summary(await run(`${base}/health/doctors`, { cookie }));
  const report = {
    date: new Date().toISOString().slice(0, 10),
    connections: CONNECTIONS,
    seconds: DURATION,
    bare: bareResult,
    findDoctorPage: appResult,
    ratioToBare: Number((appResult.requestsPerSecond / bareResult.requestsPerSecond).toFixed(4)),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await app.stop();
  bare.close();
}
