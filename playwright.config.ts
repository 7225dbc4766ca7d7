// Browser tests: Debian's Chromium headless shell (Playwright cannot download its own browser here;
// tests/chromium.ts says why the shell) against the production build, started with a capturing SMTP server by tests/e2e/server.ts.
// Two projects, desktop and phone (a 360x740 touch screen with a throttled CPU and network); each
// spec chooses JavaScript on or off with `test.use({ javaScriptEnabled })`.
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_PATH } from "./tests/chromium.ts";
import type { Throttle } from "./tests/e2e/support.ts";

// A mid-range phone on a 4G network: CPU 2x slower (pages with JavaScript: throttlePage in
// tests/e2e/support.ts says why), 60 ms round trips, 9 Mbit/s down, 1.5 up.
const phoneThrottle: Throttle = { cpu: 2, latencyMs: 60, downloadKbps: 9_000, uploadKbps: 1_500 };
// The phone project runs what a phone's size, touch screen and slower CPU change: every journey
// once, with JavaScript off and on (accounts, booking, a doctor's appointments, open requests,
// consultations, onboarding and the profile gate, the admin's verification, the patient's profile,
// calendars, lite mode, client validation, dialogs whose code loads late), where the side menu hides behind the menu button (mainMenu in
// tests/e2e/fixtures.ts) and hydration comes late; and the specs written for the phone's own races
// and dialogs (the book dialog's date, a doctor's cancel dialog, a refused account deletion). The
// layout spec's walk makes its own contexts and sizes (a phone at 320 and 360 px, a desktop for axe),
// the same in either project, so it runs only on the phone; it also loads every page of every role
// at phone sizes in both languages and JavaScript states, field errors, dialogs and toasts included.
// Left to the desktop, because no screen size changes them (docs/testing.md, Phone project): rules
// and messages (rate limits, login notices and roles, error pages, degraded scripts and storage,
// refusals, paging, home counts, phone numbers, past appointments, profile-gate timing, open-request
// rules, a country change) and the French runs of journeys already run at phone size in English.
const phoneOnly = ["**/layout.spec.ts"];
const phoneSpecs = [
  "layout",
  "auth",
  "patient-booking",
  "patient-booking-date",
  "next-slot",
  "doctor-appointments",
  "doctor-no-shows", // in French too, at 320 px: its French words are the longer ones
  "search-box",
  "doctor-cancel-and-failures",
  "patient-open-requests",
  "doctor-open-requests",
  "doctor-consultations",
  "doctor-onboarding",
  "admin-verification",
  "patient-profile",
  "patient-delete-refused",
  "calendar",
  "lite-mode",
  "form-validation",
  "lazy-dialogs",
  "sms-settings",
  "mail-settings", // the settings page in French at 360 px
  "availability",
  "visit-length", // the journey in English; the rest on the desktop
  "front-desk", // in French too, at 320 px: the desk's French words are the longer ones
  "phone-sign-up", // in French too: the patient with a phone and no e-mail is on a phone
  "add-email", // in French too, at 320 px: the patient with a phone and no e-mail is on a phone
].map((name) => `**/${name}.spec.ts`);
/** Tests of the phone specs above whose subject no screen size changes (the desktop runs them). */
const desktopOnlyTests = [
  /each form says what is wrong/, // auth: the messages; the walk shows every form's errors at 320 and 360 px
  /the patient journey in French/, // auth: the language; the English journeys run on the phone
  /guards: back to the page asked for/, // auth: redirects
  /booking a doctor in French/, // patient-booking: the language; the English journey runs on the phone
  /doctor appointments in French/, // doctor-appointments: the language
  /already marked meanwhile/, // doctor-no-shows: a refusal's words
  /form validation in fr/, // form-validation: the language; the English runs are on the phone
  /where the desk may go/, // front-desk: redirects
  /weekdays are what a patient books in French/, // visit-length: the language; the English journey runs on the phone
  /a wrong period is said beside its field/, // visit-length: the messages; the walk shows the form's errors at 320 and 360 px
  /a plan shrunk over a booked appointment/, // visit-length: a rule; the walk shows the list at 320 and 360 px
];

const PORT = Number(process.env.E2E_PORT ?? 3100);
const CI = !!process.env.CI;
// Where the JSON report and the artifacts go (tests/run-all.sh reads RESULTS/e2e.json).
const RESULTS = process.env.E2E_RESULTS_DIR ?? "test-results";
// Helpers that call the API directly follow the app's port (this file is loaded by every worker).
process.env.E2E_API_URL ??= `http://127.0.0.1:${PORT}/api`;
// The app's data folder, known to every worker: the admin fixture runs the CLI against it.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `e2e-data-${PORT}`);

export default defineConfig<{ throttle: Throttle | null }>({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // Artifacts (traces, screenshots) in a subfolder: Playwright empties its outputDir at start, and
  // test-results/ also holds the vitest reports of tests/run-all.sh.
  outputDir: `${RESULTS}/artifacts`,
  // Every test makes its own users (tests/e2e/fixtures.ts): any test can run beside any other.
  fullyParallel: true,
  forbidOnly: CI,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: `${RESULTS}/e2e.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    locale: "en-US", // Accept-Language: English unless a spec picks French
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "desktop", testIgnore: phoneOnly },
    {
      name: "phone",
      testMatch: phoneSpecs,
      grepInvert: desktopOnlyTests,
      // A throttled phone takes longer for the same journey.
      timeout: 120_000,
      use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, throttle: phoneThrottle },
    },
  ],
  webServer: {
    command: "node tests/e2e/server.ts",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets server.ts stop the app (PGlite closes cleanly) and remove its data folder.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
