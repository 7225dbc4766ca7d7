// A page's first visit as a phone on a prepaid data plan pays for it (issue 35): a browser context
// of its own (cold cache), JavaScript on, 360 px wide, and every response the page fetched from its
// start until 8 s after its load event (the language's texts and any code loaded after hydration
// included), counted as it came over the wire: compressed as the server sent it, headers included
// (Chromium's encodedDataLength, what DevTools calls "transferred"). Shared by the browser test that
// holds every page to its budget (tests/e2e/first-visit.spec.ts) and by bench/first-visit.ts, which
// prints the table of bench/README.md. A repeat visit (the cache kept from the pages opened before)
// is counted the same way: what the cache answers does not come over the wire.
import type { BrowserContext, Page } from "@playwright/test";

const KB = 1024;
/** The first visit of every page, with everything it fetches: at most this many bytes on the wire. */
export const FIRST_VISIT_BUDGET = 150 * KB;

/** The kinds a first visit's bytes are counted by. */
export const KINDS = ["document", "script", "stylesheet", "data", "other"] as const;
type Kind = (typeof KINDS)[number];

export interface MeasuredVisit {
  /** Bytes on the wire by kind, and all together. */
  bytes: Record<Kind, number> & { total: number };
  /** Every response, largest first: what to look at when a page grows. */
  files: { url: string; kind: Kind; bytes: number }[];
}

/** The browser 360 px wide, on a touch screen: what the budget is measured at. */
export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } as const;

/** How long after its load event a page's later fetches still count as its first visit. */
const AFTER_LOAD_MS = 8000;
/** A page fetching nothing for this long has fetched all it will without the user (it may stop sooner than 8 s). */
const QUIET_MS = 2000;

function kindOf(type: string | undefined, url: string): Kind {
  if (type === "Document") return "document";
  if (type === "Script") return "script";
  if (type === "Stylesheet") return "stylesheet";
  // React Router's loader data (the .data requests of a navigation or a revalidation).
  if (type === "Fetch" || type === "XHR" || /\.data(\?|$)/.test(url)) return "data";
  return "other";
}

/**
 * Opens `path` in a new page of `context` and counts what the page fetches until 8 s after its load
 * event, or sooner once it has been quiet for 2 s. The page is closed after. The browser's cache is
 * emptied first, unless `cache` is "kept": then the visit is a repeat one, after the pages this
 * context has opened before.
 */
export async function measureVisit(
  context: BrowserContext,
  path: string,
  { cache = "emptied" }: { cache?: "emptied" | "kept" } = {},
): Promise<MeasuredVisit> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = new Map<string, { url: string; type?: string }>();
  const files: MeasuredVisit["files"] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  let counting = true;
  cdp.on("Network.requestWillBeSent", (event) => {
    if (!counting || event.request.url.startsWith("data:")) return;
    // A redirect is one request id seen twice: the hop's bytes are counted with the request.
    if (!requests.has(event.requestId)) inFlight++;
    requests.set(event.requestId, { url: event.request.url, type: event.type });
    lastActivity = Date.now();
  });
  // A file the browser's cache answered did not come over the wire: not counted, not listed.
  const fromCache = new Set<string>();
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    if (response.fromDiskCache) fromCache.add(requestId);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    requests.delete(event.requestId);
    inFlight--;
    lastActivity = Date.now();
    if (fromCache.has(event.requestId)) return;
    const url = new URL(request.url);
    files.push({
      url: url.pathname + url.search,
      kind: kindOf(request.type, request.url),
      bytes: event.encodedDataLength,
    });
  });
  cdp.on("Network.loadingFailed", (event) => {
    if (requests.delete(event.requestId)) inFlight--;
    lastActivity = Date.now();
  });
  await cdp.send("Network.enable");
  // The browser's cache emptied before a first visit (the pages of a test share a context); within
  // the visit the cache works as a phone's does.
  if (cache === "emptied") await cdp.send("Network.clearBrowserCache");
  let response = await page.goto(path, { waitUntil: "load" });
  // A page the server refuses (the not-found page) is measured too; a server error is a failure,
  // after one more try of a first visit (a render past its time limit on a loaded machine), counted
  // from scratch. A repeat visit is not tried again: the failed try has filled the cache.
  if ((!response || response.status() >= 500) && cache === "emptied") {
    files.length = 0;
    await cdp.send("Network.clearBrowserCache");
    response = await page.goto(path, { waitUntil: "load" });
  }
  if (!response || response.status() >= 500) throw new Error(`${path} answered ${response?.status()}`);
  const loaded = Date.now();
  while (Date.now() - loaded < AFTER_LOAD_MS) {
    if (inFlight === 0 && Date.now() - lastActivity >= QUIET_MS) break;
    await page.waitForTimeout(100);
  }
  counting = false;
  await page.close();
  const bytes = { document: 0, script: 0, stylesheet: 0, data: 0, other: 0, total: 0 };
  for (const file of files) {
    bytes[file.kind] += file.bytes;
    bytes.total += file.bytes;
  }
  files.sort((a, b) => b.bytes - a.bytes);
  return { bytes, files };
}

/** 1234 -> "1.2" (KB = 1024 bytes). */
export const kb = (bytes: number) => (bytes / KB).toFixed(1);

/** One line of a page's weight by kind, for a failure message or a table. */
export function describeVisit(visit: MeasuredVisit) {
  return `${kb(visit.bytes.total)} KB (${KINDS.map((k) => `${k} ${kb(visit.bytes[k])}`).join(", ")})\n${visit.files
    .map((f) => `    ${kb(f.bytes).padStart(6)}  ${f.kind.padEnd(10)}  ${f.url}`)
    .join("\n")}`;
}
