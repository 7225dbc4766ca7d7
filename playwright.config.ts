// Browser tests: Debian's Chromium (Playwright cannot download its own browser here) against the
// production build, started with a capturing SMTP server by tests/e2e/server.ts.
// Two projects, desktop and phone (a 360x740 touch screen with a throttled CPU and network); each
// spec chooses JavaScript on or off with `test.use({ javaScriptEnabled })`.
import { defineConfig } from "@playwright/test";
import type { Throttle } from "./tests/e2e/support.ts";

// A mid-range phone on a 4G network: CPU 2x slower, 60 ms round trips, 9 Mbit/s down, 1.5 up.
const phoneThrottle: Throttle = { cpu: 2, latencyMs: 60, downloadKbps: 9_000, uploadKbps: 1_500 };
// The phone project runs the phone-first specs: the layout spec (it sets its own widths, 320 and
// 360 px, so it runs only here) and the degrading enhancements. The journeys still run on the
// desktop only: several steps use the side menu, which a phone shows behind the menu button.
// The calendar spec runs there too: the settings page's feed address and the appointment dialog's
// calendar links must fit a phone.
const phoneSpecs = ["**/layout.spec.ts", "**/degrade.spec.ts", "**/calendar.spec.ts"];
// The axe checks make their own contexts at desktop size: once, in the desktop project.
const phoneOnly = ["**/layout.spec.ts"];

const PORT = Number(process.env.E2E_PORT ?? 3100);
const CI = !!process.env.CI;
// Where the JSON report and the artifacts go (tests/run-all.sh reads RESULTS/e2e.json).
const RESULTS = process.env.E2E_RESULTS_DIR ?? "test-results";
// Helpers that call the API directly follow the app's port (this file is loaded by every worker).
process.env.E2E_API_URL ??= `http://127.0.0.1:${PORT}/api`;

export default defineConfig<{ throttle: Throttle | null }>({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // Artifacts (traces, screenshots) in a subfolder: Playwright empties its outputDir at start, and
  // test-results/ also holds the vitest reports of tests/run-all.sh.
  outputDir: `${RESULTS}/artifacts`,
  fullyParallel: false,
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
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
