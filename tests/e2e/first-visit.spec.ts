// The first visit of every page fits a phone's data plan (issue 35): at most 150 KB on the wire,
// everything the page fetches within 8 s of its load included (tests/first-visit.ts says how it is
// counted), with JavaScript on at 360 px, on the production build. The pages are those of the layout
// walk (tests/e2e/layout-support.ts, every page of every role with the data that fills it): a page
// added there is held to the budget too. Each role's test lists every page over the budget with
// what it fetched, largest file first. A repeat visit of another page fetches only what differs.
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describeVisit, FIRST_VISIT_BUDGET, type MeasuredVisit, kb, measureVisit, PHONE } from "../first-visit.ts";
import { buildWorld, DIALOG, pageAs, type Language, type Role, type World } from "./layout-support.ts";
import { expect, test } from "./support.ts";

let world: World;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  world = await buildWorld(browser);
});

test.use({ javaScriptEnabled: true });

// A doctor awaiting approval sees the approved doctor's pages, fewer of them.
const roles: Role[] = ["anonymous", "patient", "doctor", "admin", "receptionist"];
// English everywhere; French, whose texts are longer, on the pages a patient and a doctor use most.
const runs: { role: Role; language: Language }[] = [
  ...roles.map((role) => ({ role, language: "en" as const })),
  { role: "patient", language: "fr" },
];

for (const { role, language } of runs) {
  test(`every ${role} page's first visit is at most 150 KB (${language})`, async ({ browser, baseURL }) => {
    test.setTimeout(300_000);
    const first = await pageAs(browser, baseURL!, world, {
      role,
      language,
      javaScriptEnabled: true,
      phoneWidth: PHONE.viewport.width,
    });
    const context = first.context();
    await first.close();
    const measured: { path: string; visit: MeasuredVisit }[] = [];
    try {
      // A page, not a dialog or an edit form opened by its URL (?edit=): their code and texts load
      // when they open, and a link that opens one is not how a first visit starts. bench/README.md
      // lists what those cost.
      const pages = world.pages[role].filter(
        (visit) => visit.path && !visit.shows?.includes(DIALOG) && !/[?&]edit=/.test(visit.path),
      );
      const paths = [...new Set(pages.map((visit) => visit.path!))];
      for (const path of paths) measured.push({ path, visit: await measureVisit(context, path) });
    } finally {
      await context.close();
    }
    report(role, language, measured);
    const over = measured.filter((m) => m.visit.bytes.total > FIRST_VISIT_BUDGET);
    expect(
      over.map((m) => m.path),
      over.map((m) => `${m.path}: ${describeVisit(m.visit)}`).join("\n"),
    ).toEqual([]);
  });
}

// A repeat visit: a page opened after another in the same browser fetches only what it has that the
// other did not (its document, its data, its own code); the rest comes from the browser's cache.
// Typed addresses or links followed without JavaScript, so nothing but the cache is shared.
// A doctor without JavaScript loads a whole document at every step: the stylesheet must stay cached.
const repeats: { role: Role; from: string; to: string; javaScriptEnabled: boolean }[] = [
  { role: "anonymous", from: "/login", to: "/register", javaScriptEnabled: true },
  { role: "patient", from: "/health/doctors", to: "/health/doctors/my-appointments", javaScriptEnabled: true },
  { role: "doctor", from: "/doctor/appointments", to: "/doctor/queue", javaScriptEnabled: true },
  { role: "doctor", from: "/doctor/appointments", to: "/doctor/queue", javaScriptEnabled: false },
  { role: "receptionist", from: "/reception", to: "/reception/patients", javaScriptEnabled: true },
];

for (const { role, from, to, javaScriptEnabled } of repeats) {
  const js = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  test(`a ${role}'s repeat visit of ${to} after ${from} fetches only what differs (${js})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const first = await pageAs(browser, baseURL!, world, {
      role,
      language: "en",
      javaScriptEnabled,
      phoneWidth: PHONE.viewport.width,
    });
    const context = first.context();
    await first.close();
    try {
      const before = await measureVisit(context, from);
      const repeat = await measureVisit(context, to, { cache: "kept" });
      // What `to` fetches with nothing in the cache: what "differs" is measured, not assumed.
      const cold = await measureVisit(context, to);
      // The document and its data are the page's own on every visit; every other file is kept.
      const files = (visit: MeasuredVisit) =>
        visit.files.filter((f) => f.kind !== "document" && f.kind !== "data").map((f) => f.url);
      console.log(
        `${role} en ${js} ${to} after ${from}: ${kb(repeat.bytes.total)} KB (first visit ${kb(cold.bytes.total)})`,
      );
      const fetchedBefore = new Set(files(before));
      const differs = files(cold).filter((url) => !fetchedBefore.has(url));
      expect(files(cold).length, describeVisit(cold)).toBeGreaterThan(differs.length);
      expect(files(repeat).sort(), describeVisit(repeat)).toEqual(differs.sort());
      expect(repeat.bytes.total).toBeLessThan(cold.bytes.total / 2);
    } finally {
      await context.close();
    }
  });
}

/** Each run's figures, for bench/README.md: a JSON file per role and language beside the test report. */
function report(role: Role, language: Language, measured: { path: string; visit: MeasuredVisit }[]) {
  const dir = path.join(process.env.E2E_RESULTS_DIR ?? "test-results", "first-visit");
  mkdirSync(dir, { recursive: true });
  const pages = measured.map(({ path, visit }) => ({ path, ...visit.bytes, files: visit.files }));
  writeFileSync(path.join(dir, `${role}-${language}.json`), `${JSON.stringify({ role, language, pages }, null, 2)}\n`);
  for (const { path, visit } of measured)
    console.log(`${role} ${language} ${path}: ${kb(visit.bytes.total)} KB (script ${kb(visit.bytes.script)})`);
}
