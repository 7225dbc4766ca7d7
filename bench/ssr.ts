// Server-side rendering throughput (DESIGN.md section 7): a signed-in patient's find-a-doctor page
// (10 doctors, through the embedded upstream API), against a bare node:http server measured in the
// same run on the same machine. Run: npm run build && node bench/ssr.ts
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const CONNECTIONS = 20;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const APP_PORT = 3190;
const BARE_PORT = 3191;

function run(url: string, headers: Record<string, string> = {}) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Logs the demo patient in through the real login form and returns the session cookie. */
async function login(base: string) {
  const body = new URLSearchParams({ email: "patient@example.com", password: "Demo1234!", role: "patient" });
  const res = await fetch(`${base}/login`, { method: "POST", body, redirect: "manual", headers: { origin: base } });
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).filter((c) => c.startsWith("__session="));
  if (!cookie.length) throw new Error(`login failed: ${res.status}`);
  return cookie.join("; ");
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

const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-ssr-"));
const app = spawn(process.execPath, ["server.ts"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(APP_PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO: "1", SESSION_SECRET: "b".repeat(40), COOKIE_SECURE: "false" },
  stdio: ["ignore", "ignore", "inherit"],
});

try {
  const base = `http://127.0.0.1:${APP_PORT}`;
  await waitFor(`${base}/healthz`);
  const cookie = await login(base);
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
  app.kill("SIGTERM");
  bare.close();
  rmSync(dataDir, { recursive: true, force: true });
}
