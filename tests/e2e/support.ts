// Shared by every journey: the mailbox of the test SMTP server (tests/e2e/server.ts), unique names,
// and a `test` that fails on any Content-Security-Policy violation, uncaught page error or hydration
// error, with an axe-core accessibility check.
//
//   import { test, expect, checkA11y, latestCode, uniqueEmail } from "./support.ts";
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

export { expect };

const MAILBOX = `http://127.0.0.1:${process.env.E2E_MAIL_PORT ?? 2526}`;

/** A message received by the test SMTP server. */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
}

/** Every message received for `email` so far, oldest first. */
export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${MAILBOX}/messages?to=${encodeURIComponent(email.toLowerCase())}`);
  if (!res.ok) throw new Error(`mailbox answered ${res.status}`);
  return (await res.json()) as Mail[];
}

/**
 * The 6-digit code of the newest text message to `phone` (E.164) at the test SMPP gateway
 * (tests/e2e/server.ts), waiting up to 10 s; with `after: n`, only messages after the first n.
 */
export async function latestSmsCode(phone: string, options: { after?: number } = {}): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const code = (await smsTo(phone))
      .slice(options.after ?? 0)
      .map((m) => m.text.match(/\b(\d{6})\b/)?.[1])
      .filter(Boolean)
      .at(-1);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no SMS code to ${phone} within 10 s`);
}

/** Every text message the test SMPP gateway received for `phone`, oldest first. */
export async function smsTo(phone: string): Promise<{ to: string; text: string }[]> {
  const res = await fetch(`${MAILBOX}/sms?to=${encodeURIComponent(phone)}`);
  if (!res.ok) throw new Error(`mailbox answered ${res.status}`);
  return res.json();
}

/**
 * The language menus' Apply buttons still shown: hydration hides them (app/components/language-menu.tsx),
 * so none left means the page's scripts have run and React has committed the hydrated page.
 */
export const shownApplyButtons = (page: Page) =>
  page.locator('select[name="lng"] ~ button[type="submit"]:not(.invisible)');

/**
 * Holds back the scripts `pattern` matches until `release()`; `asked` once the page has asked for
 * one. From the first page on, so no copy of it is in the cache: a module on a slow network.
 */
export async function holdModule(page: Page, pattern: RegExp) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = { asked: false, release: () => release() };
  await page.route(pattern, async (route) => {
    state.asked = true;
    await held;
    // The first page's request may have been cancelled by a navigation.
    await route.continue().catch(() => {});
  });
  return state;
}

/**
 * The code of a mail: the 6 digits alone on a line, where every code mail puts it (api/mail/templates.ts).
 * Only there: a greeting such as "Hello Doctor 325022" (a test name's hex suffix, all digits one time
 * in 17) is no code, and a mail without one (an approval arriving late) would pass for a second code.
 */
export function codeIn(mail: Mail): string | undefined {
  return mail.text.match(/^[ \t]*(\d{6})[ \t]*$/m)?.[1];
}

/**
 * The 6-digit code of the newest mail to `email`, waiting up to `timeout` ms (10 s) for one to
 * arrive. With `after: n`, only mails after the first n count: read `(await mailsTo(email)).length`
 * before the action that sends a new code, so an older code is never returned.
 */
export async function latestCode(email: string, options: { after?: number; timeout?: number } = {}): Promise<string> {
  const deadline = Date.now() + (options.timeout ?? 10_000);
  let seen: Mail[] = [];
  while (Date.now() < deadline) {
    seen = await mailsTo(email);
    // The newest mail that carries a code: other mail (an approval, a notice) arrives on its own
    // time from the outbox, before or after it.
    const code = seen
      .slice(options.after ?? 0)
      .map(codeIn)
      .filter(Boolean)
      .at(-1);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  const subjects = seen.map((m) => `"${m.subject}"`).join(", ") || "none";
  throw new Error(
    `no code mailed to ${email} within ${options.timeout ?? 10_000} ms (after ${options.after ?? 0}; mails seen: ${subjects})`,
  );
}

/**
 * A client address of its own (100.64.0.0/10, shared address space), sent as X-Forwarded-For: the
 * app trusts its loopback proxy, so each test or helper call is a separate client and the
 * per-address rate limits of one never meet another's (docs/throttling.md).
 */
export const clientAddress = () =>
  `100.${64 + Math.floor(Math.random() * 64)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** A new address for each call, e.g. uniqueEmail("patient") -> patient-1a2b3c4d@example.test */
export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

// Whether JavaScript is off in a context: recorded by the `test` fixture for its own page, else read
// from the options the context was made with (for contexts a spec creates itself).
const scriptsOff = new WeakMap<BrowserContext, boolean>();
function javaScriptDisabled(page: Page): boolean {
  const context = page.context();
  return (
    scriptsOff.get(context) ??
    (context as unknown as { _options?: { javaScriptEnabled?: boolean } })._options?.javaScriptEnabled === false
  );
}

type Configure = (builder: AxeBuilder) => AxeBuilder;

/**
 * axe needs to run script in the page, which a context with JavaScript disabled never allows (the
 * analysis would hang). So analyse a copy of the page's current DOM, as a browser without
 * JavaScript shows it (scripts removed, <noscript> content shown), served at the same address in a
 * scripted context of the same browser, so the same styles load and colour contrast is real.
 * One such copy page per worker's browser, made at the first check and kept until the browser
 * closes: a spec that checks many pages pays for one context and loads the styles once.
 */
const copies = new WeakMap<Browser, Promise<{ copy: Page; serve: (url: string, html: string) => void }>>();
async function copyPageOf(browser: Browser) {
  // Explicit javaScriptEnabled: inside a test, newContext() inherits the test's `use` options.
  const copy = await (await browser.newContext({ javaScriptEnabled: true })).newPage();
  let served = { url: "", html: "" };
  await copy.route(
    (u) => u.href.replace(/#.*$/, "") === served.url,
    (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: served.html }),
  );
  return { copy, serve: (url: string, html: string) => void (served = { url, html }) };
}

async function analyzeWithoutJavaScript(page: Page, configure: Configure) {
  const browser = page.context().browser();
  if (!browser) throw new Error("checkA11y: a page without JavaScript needs a browser-launched context");
  if (!copies.has(browser)) copies.set(browser, copyPageOf(browser));
  const { copy, serve } = await copies.get(browser)!;
  const url = page.url().replace(/#.*$/, "");
  const html = (await page.content())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>/gi, "")
    .replace(/<\/?noscript\b[^>]*>/gi, "");
  serve(url, html);
  await copy.setViewportSize(page.viewportSize() ?? { width: 1280, height: 720 });
  await copy.goto(url, { waitUntil: "load" });
  return configure(new AxeBuilder({ page: copy })).analyze();
}

/**
 * Fails with a readable list when axe finds any WCAG 2 A/AA violation on the page as it is now.
 * Works with JavaScript enabled or disabled.
 */
export async function checkA11y(
  page: Page,
  options: { exclude?: string[]; disableRules?: string[]; thorough?: boolean } = {},
) {
  const configure: Configure = (builder) => {
    // thorough: WCAG 2.2 AA, axe's best practices (landmarks, regions) and the still-experimental
    // check that an accessible name contains the visible label (what voice control users say).
    let b = options.thorough
      ? builder
          .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
      : builder.withTags(["wcag2a", "wcag2aa"]);
    for (const selector of options.exclude ?? []) b = b.exclude(selector);
    if (options.disableRules?.length) b = b.disableRules(options.disableRules);
    // Legacy mode runs axe in the page itself; the default opens and injects a blank page for each
    // analysis (to merge cross-origin frames, which this app has none of): about three times slower.
    return b.setLegacyMode(true);
  };
  const results = javaScriptDisabled(page)
    ? await analyzeWithoutJavaScript(page, configure)
    : await configure(new AxeBuilder({ page })).analyze();
  const lines = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} [${v.helpUrl}]\n` +
      v.nodes
        .map((n) => `    ${n.target.join(" ")}\n      ${n.failureSummary?.replace(/\n/g, "\n      ") ?? ""}`)
        .join("\n"),
  );
  expect(lines, `accessibility violations on ${page.url()}:\n${lines.join("\n")}`).toEqual([]);
}

/** A slower device: CPU slowed down `cpu` times (pages with JavaScript), and a network with this latency and throughput. */
export interface Throttle {
  cpu: number;
  latencyMs: number;
  downloadKbps: number;
  uploadKbps: number;
}

/**
 * Chromium's DevTools protocol: what a mid-range phone on a mobile network feels like. The CPU is
 * slowed only where scripts run (`scripts`: the page's JavaScript is on): Chromium slows a page by
 * interrupting its main thread with a signal whose handler spins until the slice is over, so a
 * throttled page burns the CPU it withholds, all the time it is open. Without JavaScript a slower
 * CPU only lays the page out later, which no test can see, while on the 2 cores of CI that burnt
 * CPU is the server's and the other worker's (the phone project took twice the desktop's CPU for
 * the same journeys). With JavaScript it delays hydration, which the phone runs are there to catch.
 */
export async function throttlePage(page: Page, throttle: Throttle, { scripts }: { scripts: boolean }) {
  const cdp = await page.context().newCDPSession(page);
  if (scripts) await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle.cpu });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: throttle.latencyMs,
    downloadThroughput: (throttle.downloadKbps * 1024) / 8,
    uploadThroughput: (throttle.uploadKbps * 1024) / 8,
  });
}

/**
 * React's words for a page whose server HTML and first browser render differ: the development
 * build's warnings and errors, and the production build's minified errors (#418 text, #419 and
 * #421-#423 a boundary or root that had to render on the client, #425 text content; React 18's
 * numbers included). The page then renders a second time in the browser, and whatever differed
 * (a stylesheet, a text) shows the difference.
 */
const HYDRATION = /hydrat|did not match|didn't match|Minified React error #(418|419|421|422|423|425)\b/i;

/**
 * Records in `problems` what the browser reports as wrong on `page`: Content-Security-Policy
 * violations, uncaught errors, and hydration errors and warnings on the console. The `test` fixture
 * watches every page of the test's context; a spec that makes its own contexts watches their pages.
 */
export function watchPage(page: Page, problems: string[]) {
  page.on("console", (message) => {
    const text = message.text();
    // Chromium reports CSP violations on the console even when JavaScript is disabled
    // ("Refused to ... because it violates the following Content Security Policy directive").
    if (/Content.Security.Policy/i.test(text)) problems.push(`CSP on ${page.url()}: ${text}`);
    else if (["error", "warning"].includes(message.type()) && HYDRATION.test(text))
      problems.push(`hydration on ${page.url()}: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught error on ${page.url()}: ${error.message}`));
}

interface Options {
  /** Set by the phone project (playwright.config.ts); null on the desktop. */
  throttle: Throttle | null;
}

interface Fixtures {
  /** What watchPage records on the test's pages; the test fails at its end if any. */
  pageProblems: string[];
  /** `checkA11y` on the test's page. */
  a11y: (options?: Parameters<typeof checkA11y>[1]) => Promise<void>;
}

export const test = base.extend<Fixtures & Options>({
  // Every context of a test (its page and those it opens) is one client with its own address.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, "x-forwarded-for": clientAddress() });
  },
  throttle: [null, { option: true }],
  page: async ({ page, throttle, javaScriptEnabled }, use) => {
    if (throttle) await throttlePage(page, throttle, { scripts: javaScriptEnabled !== false });
    await use(page);
  },
  // Watches the pages of the test's context as they open, rather than asking for `page`: a test that
  // never uses `page` (the layout walk, specs that make their own contexts) then opens none, and on
  // the phone no throttled blank page burns the CPU for the whole test (throttlePage says why).
  pageProblems: [
    async ({ context, javaScriptEnabled }, use) => {
      scriptsOff.set(context, javaScriptEnabled === false);
      const problems: string[] = [];
      const watch = (page: Page) => watchPage(page, problems);
      for (const page of context.pages()) watch(page);
      context.on("page", watch);
      await use(problems);
      expect(problems, `the browser reported problems:\n${problems.join("\n")}`).toEqual([]);
    },
    { auto: true },
  ],
  a11y: async ({ page }, use) => {
    await use((options) => checkA11y(page, options));
  },
});
