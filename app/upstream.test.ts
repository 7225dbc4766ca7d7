// A web tier whose upstream API fails (docs/errors.md): a signed-in page answers the 503 page with
// a retry link, in the user's language, whether the upstream hangs or drops the connection; and
// a form posted while it hangs waits for it once, not once per call.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, patientSession, startWebServer, type WebServer } from "./test/web-server.ts";

let app: WebServer;
let upstream: http.Server;
let mode: "hang" | "drop" | "forbid" = "hang";
/** What the upstream received, in order: each request's start and its end by the client. */
const events: string[] = [];
const hanging = new Set<http.ServerResponse>();

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const name = `${req.method} ${req.url}`;
    events.push(`start ${name}`);
    req.socket.once("close", () => events.push(`closed ${name}`));
    if (mode === "drop") req.socket.destroy();
    else if (mode === "forbid")
      res.writeHead(403, { "content-type": "application/json" }).end('{"message":"Forbidden","code":"forbidden"}');
    else hanging.add(res);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => upstream.listen(port, "127.0.0.1", resolve));
  app = await startWebServer({ env: { API_URL: `http://127.0.0.1:${port}`, API_TIMEOUT_MS: "1500" } });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  for (const res of hanging) res.socket?.destroy();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

/** A signed-in patient's session cookie (the fake upstream never checks the token). */
const patientCookie = (language?: string) => patientSession("a-token-the-upstream-never-checks", language);

function get(path: string, cookie: string) {
  return fetch(`${app.url}${path}`, { headers: { cookie }, redirect: "manual" });
}

const heading = (html: string) => html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];

// What the signed-in page answers for each way the upstream fails: the status, and the page's
// heading in English and in French; never a stack in the log.
const failures = [
  { how: "hang", status: 503, en: "Service unavailable", fr: "Service indisponible" },
  { how: "drop", status: 503, en: "Service unavailable", fr: "Service indisponible" },
  { how: "forbid", status: 403, en: "Unauthorized access", fr: "Accès non autorisé" },
] as const;

describe.each(failures)("an upstream that fails ($how)", ({ how, status, en, fr }) => {
  it(`gives the ${status} page, in English and in French`, async () => {
    mode = how;
    const english = await get("/health/doctors/my-appointments", await patientCookie());
    expect(english.status).toBe(status);
    const page = await english.text();
    expect(heading(page)).toBe(en);
    // Only an unavailable upstream is worth trying again.
    if (status === 503) expect(page).toMatch(/<a class="btn-secondary" href="">Try again<\/a>/);
    const french = await get("/health/doctors/my-appointments", await patientCookie("fr"));
    expect(french.status).toBe(status);
    expect(heading(await french.text())).toBe(fr);
    expect(app.logs().filter((line) => /^\s+at /.test(line))).toEqual([]);
  });
});

describe("a booking posted while the upstream hangs", () => {
  it("waits for the upstream once: no call starts after the first one timed out", async () => {
    mode = "hang";
    events.length = 0;
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await fetch(`${app.url}/health/doctors?book=1`, {
      method: "POST",
      headers: { cookie: await patientCookie(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        doctorId: "1",
        type: "in-person",
        date: tomorrow,
        time: "09:00",
        idempotencyKey: crypto.randomUUID(),
      }),
      redirect: "manual",
    });
    expect(res.status).toBe(503);
    const booking = events.indexOf("start POST /appointment");
    expect(booking).toBeGreaterThanOrEqual(0);
    // The web tier gave the call up (its connection closed); the close reaches the upstream's
    // socket a moment after the 503 may have reached the browser.
    await expect.poll(() => events.indexOf("closed POST /appointment")).toBeGreaterThan(booking);
    const bookingGaveUp = events.indexOf("closed POST /appointment");
    // The page that shows the refusal needs the upstream too: with one budget per request, its
    // calls are not even tried once the booking used the time up.
    expect(events.slice(bookingGaveUp).filter((event) => event.startsWith("start"))).toEqual([]);
  });
});
