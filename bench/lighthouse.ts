// Lighthouse 12 on a phone (issue 35): the paint and blocking figures of the pages a patient opens
// first, with Lighthouse's mobile defaults (a Moto G Power's screen, slow 4G: 150 ms round trips and
// 1.6 Mbit/s, a CPU four times slower), on the production build with the demo accounts, reached as
// phones reach it in production: through HTTPS with HTTP/2 (an nginx front, bench/support.ts). Each
// page is measured as Lighthouse does by default (it loads the page at full speed, then simulates
// the slow network and CPU on what it saw: "simulated"), with the slow network and CPU applied while
// the page loads ("applied"), and simulated again at the app's own port, plain HTTP/1.1, where a
// phone would open six connections instead of one. bench/README.md and ADR 0031 say why.
// Run: npm run build && node bench/lighthouse.ts   (BENCH_RUNS=n: the median of n runs a page, 3 by
// default; BENCH_JSON=path writes every figure of every run there; BENCH_PORT fixes the app's port;
// NGINX_BIN names nginx).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { benchConfig } from "../config.ts";
import { CHROMIUM_PATH } from "../tests/chromium.ts";
import { freePort, login, markdownTable, startHttpsFront, startProductionApp, writeBenchJson } from "./support.ts";

type Who = "anonymous" | "patient";
/** The pages of issue 35: the first a visitor and a patient see. */
const pages: { path: string; who: Who }[] = [
  { path: "/login", who: "anonymous" },
  { path: "/health/doctors", who: "patient" },
  { path: "/health/doctors/my-appointments", who: "patient" },
];
/** Each page's measures: through which door, and Lighthouse's throttling method (as shown, as it names it). */
const methods = [
  { front: "HTTPS, HTTP/2", method: "simulated", throttlingMethod: "simulate" },
  { front: "HTTPS, HTTP/2", method: "applied", throttlingMethod: "devtools" },
  { front: "app's port, HTTP/1.1", method: "simulated", throttlingMethod: "simulate" },
] as const;

const bench = benchConfig();
const runs = bench.BENCH_RUNS ?? 3;
const app = await startProductionApp({ port: bench.BENCH_PORT, env: { API_URL: "", DATABASE_URL: "", SMTP_URL: "" } });
const front = await startHttpsFront(app.base);
// A browser Lighthouse drives through its debugging port; its one profile holds the session cookie.
const port = await freePort();
const profile = mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM_PATH,
  // The front's certificate, made for this run, is the only one trusted besides the usual ones.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    `--remote-debugging-port=${port}`,
    `--ignore-certificate-errors-spki-list=${front.spki}`,
  ],
});
let failed = false;
try {
  const patient = await login(app.base, "patient@example.com", "patient");
  const [name, ...value] = patient.split("=");
  type Figures = { fcp: number; lcp: number; tbt: number; cls: number; accessibility: number };
  const results: { page: string; who: Who; front: string; method: string; runs: Figures[] }[] = [];
  for (const spec of pages) {
    await browser.clearCookies();
    // A cookie of 127.0.0.1 goes to both doors: cookies ignore the port, and this one is not Secure.
    if (spec.who === "patient") await browser.addCookies([{ name, value: value.join("="), url: app.base }]);
    for (const { front: door, method, throttlingMethod } of methods) {
      const base = door === "HTTPS, HTTP/2" ? front.base : app.base;
      const measured: Figures[] = [];
      for (let run = 0; run < runs; run++) {
        // Lighthouse empties the page's caches before it loads it (a first visit), and keeps cookies.
        const result = await lighthouse(`${base}${spec.path}`, {
          port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          throttlingMethod,
        });
        const lhr = result!.lhr;
        if (new URL(lhr.finalDisplayedUrl).pathname !== spec.path)
          throw new Error(`${spec.path} ended on ${lhr.finalDisplayedUrl}`);
        const metric = (id: string) => lhr.audits[id].numericValue ?? Number.NaN;
        measured.push({
          fcp: metric("first-contentful-paint"),
          lcp: metric("largest-contentful-paint"),
          tbt: metric("total-blocking-time"),
          cls: metric("cumulative-layout-shift"),
          accessibility: (lhr.categories.accessibility.score ?? 0) * 100,
        });
      }
      results.push({ page: spec.path, who: spec.who, front: door, method, runs: measured });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const head = ["page", "as", "through", "throttling", "FCP s", "LCP s", "TBT ms", "CLS", "accessibility"];
  console.log(`Lighthouse 12 mobile, median of ${runs} runs a page\n`);
  const rows = results.map(({ page, who, front: door, method, runs: r }) => {
    const of = (key: keyof Figures) => median(r.map((f) => f[key]));
    const seconds = (ms: number) => (ms / 1000).toFixed(2);
    return [
      page,
      who,
      door,
      method,
      seconds(of("fcp")),
      seconds(of("lcp")),
      Math.round(of("tbt")),
      of("cls").toFixed(3),
      of("accessibility"),
    ];
  });
  console.log(markdownTable(head, rows, 4));
  writeBenchJson(results);
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await front.stop();
  await app.stop();
}
process.exitCode = failed ? 1 : 0;
