// A page's first visit on a phone (issue 35; how it is counted: tests/first-visit.ts): for the main
// page of each role, what a browser with a cold cache, JavaScript on and 360 px wide fetches from the
// page's start to 8 s after its load, on the wire (compressed as sent, headers included), by kind.
// Budget: 150 KB a page. The browser test tests/e2e/first-visit.spec.ts holds every page of every
// role to it in CI; this prints the table of bench/README.md, with the demo accounts.
// Run: npm run build && node bench/first-visit.ts   (BENCH_JSON=path also writes every file of every
// page there; BENCH_PORT fixes the port). Exit status 1 when a page is over the budget.
import { chromium } from "@playwright/test";
import { benchConfig } from "../config.ts";
import { CHROMIUM_PATH } from "../tests/chromium.ts";
import { FIRST_VISIT_BUDGET, type MeasuredVisit, KINDS, kb, measureVisit, PHONE } from "../tests/first-visit.ts";
import { login, markdownTable, startProductionApp, writeBenchJson } from "./support.ts";

type Who = "anonymous" | "patient" | "doctor" | "admin" | "receptionist";
/** The pages measured: add a page here when it is added to the app (the browser test finds it by itself). */
const pages: { path: string; who: Who; language?: "fr" }[] = [
  { path: "/login", who: "anonymous" },
  { path: "/login", who: "anonymous", language: "fr" },
  { path: "/register", who: "anonymous" },
  { path: "/forgot-password", who: "anonymous" },
  { path: "/health/doctors", who: "patient" },
  { path: "/health/doctors", who: "patient", language: "fr" },
  { path: "/health/doctors/my-appointments", who: "patient" },
  { path: "/patient/profile", who: "patient" },
  { path: "/doctor/appointments", who: "doctor" },
  { path: "/doctor/appointments", who: "doctor", language: "fr" },
  { path: "/doctor/dashboard", who: "doctor" },
  { path: "/doctor/consultations", who: "doctor" },
  { path: "/doctor/availability", who: "doctor" },
  { path: "/doctor/queue", who: "doctor" },
  { path: "/admin/closures", who: "admin" },
  { path: "/admin/staff", who: "admin" },
  { path: "/reception", who: "receptionist" },
  { path: "/reception/patients", who: "receptionist" },
  { path: "/settings", who: "patient" },
];

const bench = benchConfig();
const app = await startProductionApp({ port: bench.BENCH_PORT, env: { API_URL: "", DATABASE_URL: "", SMTP_URL: "" } });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox", "--disable-gpu"] });
let failed = false;
try {
  const base = app.base;
  const sessions: Record<Who, string> = {
    anonymous: "",
    patient: await login(base, "patient@example.com", "patient"),
    doctor: await login(base, "doctor@example.com", "doctor"),
    // An admin signs in through the same form, whichever of its roles is chosen.
    admin: await login(base, "admin@example.com", "patient"),
    receptionist: await login(base, "reception@example.com", "receptionist"),
  };
  const results: { page: string; who: Who; visit: MeasuredVisit }[] = [];
  for (const spec of pages) {
    const context = await browser.newContext({ ...PHONE, baseURL: base });
    const cookies = [sessions[spec.who], spec.language ? `i18nextLng=${spec.language}` : ""]
      .join("; ")
      .split("; ")
      .filter(Boolean)
      .map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name, value: value.join("="), url: base };
      });
    await context.addCookies(cookies);
    results.push({
      page: spec.path + (spec.language ? ` (${spec.language})` : ""),
      who: spec.who,
      visit: await measureVisit(context, spec.path),
    });
    await context.close();
  }
  const head = ["page", "as", ...KINDS, "total", "budget 150"];
  const rows = results.map(({ page, who, visit }) => [
    page,
    who,
    ...KINDS.map((kind) => kb(visit.bytes[kind])),
    kb(visit.bytes.total),
    visit.bytes.total <= FIRST_VISIT_BUDGET ? "pass" : "FAIL",
  ]);
  console.log("First visit on a phone: KB on the wire (compressed, headers included), KB = 1024 bytes\n");
  console.log(markdownTable(head, rows, 2));
  failed = results.some((r) => r.visit.bytes.total > FIRST_VISIT_BUDGET);
  writeBenchJson(results);
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await browser.close();
  await app.stop();
}
process.exitCode = failed ? 1 : 0;
