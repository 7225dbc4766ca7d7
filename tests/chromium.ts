// The browser of the browser tests (playwright.config.ts, the scale-out suite): Debian's Chromium,
// as its headless shell (package chromium-headless-shell, installed by tests/ensure-chromium.sh).
// The shell is the same Chromium without the desktop browser's own windows and services, and what
// Playwright itself runs for headless tests: on the 2 cores of CI, where the browser tests are
// bound by the CPU, it took a quarter less CPU for the same journeys than the full browser (measured
// in docs/testing.md). A headed run needs the full browser: CHROMIUM_PATH=/usr/bin/chromium.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium-headless-shell";
