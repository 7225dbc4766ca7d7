// Page weight (docs/architecture.md, Budgets): for a representative set of pages, the gzip size of the HTML,
// of the stylesheets it links, and of the JavaScript a browser loads first when scripts run (every
// <script src>, every <link rel="modulepreload">, every inline <script>, JSON data blocks included), each file gzipped on its own
// at level 9 as it would travel. Budgets: HTML + CSS <= 30 KB; first-load JS <= 120 KB, or more on
// the pages whose first screen is a form, which load zod and conform with it (why, and where the
// weight is: docs/decisions/0021-first-load-javascript-with-conform.md).
// Run: npm run build && node bench/weight.ts   (BENCH_JSON=path also writes the JSON summary there;
// BENCH_FILES=1 lists every file of every page; BENCH_PORT fixes the port). Exit status 1 when a
// budget is missed or a page fails to load. Latest numbers: bench/README.md.
import { gzipSync } from "node:zlib";
import { benchConfig } from "../config.ts";
import { login, startProductionApp, writeBenchJson } from "./support.ts";

const KB = 1024;
const HTML_CSS_BUDGET = 30 * KB;
const JS_BUDGET = 120 * KB;
// A page whose first screen is a form: zod and conform (34.5 KB) come with it (ADR 0021).
const FORM_PAGE_JS_BUDGET = 152 * KB;

type Who = "anonymous" | "patient" | "doctor" | "admin";
interface PageSpec {
  path: string;
  who: Who;
  language?: "fr";
  /** Sent with `Save-Data: on`: lite mode, no script at all. */
  lite?: boolean;
  /** First-load JS budget, when not JS_BUDGET. */
  jsBudget?: number;
}

const pages: PageSpec[] = [
  { path: "/login", who: "anonymous", jsBudget: FORM_PAGE_JS_BUDGET },
  { path: "/login", who: "anonymous", language: "fr", jsBudget: FORM_PAGE_JS_BUDGET },
  { path: "/register", who: "anonymous", jsBudget: FORM_PAGE_JS_BUDGET },
  { path: "/forgot-password", who: "anonymous", jsBudget: FORM_PAGE_JS_BUDGET },
  { path: "/reset-password", who: "anonymous", jsBudget: FORM_PAGE_JS_BUDGET },
  { path: "/health/doctors", who: "patient" },
  { path: "/health/doctors/my-appointments", who: "patient" },
  { path: "/patient/profile", who: "patient" },
  { path: "/doctor/appointments", who: "doctor" },
  // The heaviest pages in French too: its texts and names are longer.
  { path: "/health/doctors", who: "patient", language: "fr" },
  { path: "/doctor/appointments", who: "doctor", language: "fr" },
  { path: "/doctor/dashboard", who: "doctor" },
  { path: "/doctor/consultations", who: "doctor" },
  // The profile's code gate: the route module and what it imports statically, as the profile itself.
  { path: "/doctor/profile", who: "doctor" },
  // The calendar's screens show a form first (the working plan, a closed day), but its code, conform
  // and zod with it, loads after hydration (after-hydration.ts): they load first what a list page does.
  { path: "/doctor/availability", who: "doctor" },
  { path: "/admin/closures", who: "admin" },
  { path: "/login", who: "anonymous", lite: true },
  { path: "/health/doctors", who: "patient", lite: true },
  { path: "/doctor/appointments", who: "doctor", lite: true },
];

const gzipSize = (content: string | Uint8Array) => gzipSync(content, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;

/** The value of one attribute in a tag's source, or undefined. */
function attribute(tag: string, name: string) {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

interface Asset {
  url: string;
  bytes: number;
  gzip: number;
}

/** What one page makes the browser download: stylesheets and first-load scripts. */
function references(html: string) {
  const stylesheets = new Set<string>();
  const scripts = new Set<string>();
  const inline: string[] = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, "rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attribute(tag, "href");
    if (!href) continue;
    if (rel.includes("stylesheet")) stylesheets.add(href);
    if (rel.includes("modulepreload")) scripts.add(href);
  }
  for (const [, open, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attribute(open, "src");
    if (src) scripts.add(src);
    // A JSON block the scripts read (the page's texts, app/page-texts.ts) is first-load data too;
    // structured data for search engines is not.
    else if (body.trim() && !/type\s*=\s*["']?application\/ld\+json/i.test(open)) inline.push(body);
    // Modules the inline module script imports (the route modules) are downloaded too.
    for (const [, specifier] of body.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+\.js)["']/g))
      scripts.add(specifier);
  }
  return { stylesheets: [...stylesheets], scripts: [...scripts], inline };
}

const assetCache = new Map<string, Asset>();
async function asset(base: string, url: string): Promise<Asset> {
  const absolute = new URL(url, base).href;
  const cached = assetCache.get(absolute);
  if (cached) return cached;
  const res = await fetch(absolute);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const result = { url, bytes: bytes.length, gzip: gzipSize(bytes) };
  assetCache.set(absolute, result);
  return result;
}

interface PageResult {
  page: string;
  who: Who;
  status: number;
  html: number;
  css: number;
  htmlCss: number;
  js: number;
  jsRaw: number;
  inlineJs: number;
  files: { url: string; gzip: number }[];
  jsBudget: number;
  htmlCssPass: boolean;
  jsPass: boolean;
}

async function measure(base: string, spec: PageSpec, cookies: Record<Who, string>): Promise<PageResult> {
  const cookie = [cookies[spec.who], spec.language ? `i18nextLng=${spec.language}` : ""].filter(Boolean).join("; ");
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (spec.lite) headers["save-data"] = "on";
  const res = await fetch(`${base}${spec.path}`, { headers, redirect: "manual" });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${spec.path} (${spec.who}) answered ${res.status}`);
  const { stylesheets, scripts, inline } = references(html);
  const css = await Promise.all(stylesheets.map((href) => asset(base, href)));
  const js = await Promise.all(scripts.map((src) => asset(base, src)));
  const inlineGzip = inline.map((body) => gzipSize(body));
  const htmlGzip = gzipSize(html);
  const cssGzip = css.reduce((sum, a) => sum + a.gzip, 0);
  const jsGzip = js.reduce((sum, a) => sum + a.gzip, 0) + inlineGzip.reduce((a, b) => a + b, 0);
  return {
    page: spec.path + (spec.language ? ` (${spec.language})` : "") + (spec.lite ? " (lite)" : ""),
    who: spec.who,
    status: res.status,
    html: htmlGzip,
    css: cssGzip,
    htmlCss: htmlGzip + cssGzip,
    js: jsGzip,
    jsRaw: js.reduce((sum, a) => sum + a.bytes, 0) + inline.reduce((sum, body) => sum + Buffer.byteLength(body), 0),
    inlineJs: inlineGzip.reduce((a, b) => a + b, 0),
    files: [
      ...css.map((a) => ({ url: a.url, gzip: a.gzip })),
      ...js.map((a) => ({ url: a.url, gzip: a.gzip })),
      ...inlineGzip.map((gzip, i) => ({ url: `(inline script ${i + 1})`, gzip })),
    ],
    jsBudget: spec.jsBudget ?? JS_BUDGET,
    htmlCssPass: htmlGzip + cssGzip <= HTML_CSS_BUDGET,
    jsPass: jsGzip <= (spec.jsBudget ?? JS_BUDGET),
  };
}

function table(results: PageResult[]) {
  const head = ["page", "as", "HTML", "CSS", "HTML+CSS", "budget 30", "JS", "(inline)", "JS budget", ""];
  const rows = results.map((r) => [
    r.page,
    r.who,
    kb(r.html).toFixed(1),
    kb(r.css).toFixed(1),
    kb(r.htmlCss).toFixed(1),
    r.htmlCssPass ? "pass" : "FAIL",
    kb(r.js).toFixed(1),
    kb(r.inlineJs).toFixed(1),
    String(kb(r.jsBudget)),
    r.jsPass ? "pass" : "FAIL",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

// The embedded API on PGlite in the temporary folder, mail to its outbox.
const bench = benchConfig();
const app = await startProductionApp({ port: bench.BENCH_PORT, env: { API_URL: "", DATABASE_URL: "", SMTP_URL: "" } });

let failed = false;
try {
  const base = app.base;
  const cookies: Record<Who, string> = {
    anonymous: "",
    patient: await login(base, "patient@example.com", "patient"),
    doctor: await login(base, "doctor@example.com", "doctor"),
    // An admin signs in through the same form, whichever of its two roles is chosen.
    admin: await login(base, "admin@example.com", "patient"),
  };
  const results: PageResult[] = [];
  for (const spec of pages) results.push(await measure(base, spec, cookies));

  console.log(`Page weight, gzip level 9, KB = 1024 bytes (budgets: HTML+CSS <= 30 KB, first-load JS per page)\n`);
  console.log(table(results));
  if (bench.BENCH_FILES) {
    for (const r of results) {
      console.log(`\n${r.page} (${r.who})`);
      for (const f of r.files) console.log(`  ${kb(f.gzip).toFixed(1).padStart(6)}  ${f.url}`);
    }
  }
  const summary = {
    date: new Date().toISOString().slice(0, 10),
    unit: "bytes, gzip level 9, each file separately",
    budgets: {
      htmlCss: HTML_CSS_BUDGET,
      js: JS_BUDGET,
      formPageJs: FORM_PAGE_JS_BUDGET,
    },
    pages: results.map(({ files: _files, ...r }) => r),
    worst: {
      htmlCss: Math.max(...results.map((r) => r.htmlCss)),
      js: Math.max(...results.map((r) => r.js)),
    },
    pass: {
      htmlCss: results.every((r) => r.htmlCssPass),
      js: results.every((r) => r.jsPass),
    },
  };
  console.log(`\n${JSON.stringify(summary, null, 2)}`);
  // The file also lists every downloaded file of every page.
  writeBenchJson({ ...summary, pages: results });
  failed = !summary.pass.htmlCss || !summary.pass.js;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await app.stop();
}
process.exitCode = failed ? 1 : 0;
