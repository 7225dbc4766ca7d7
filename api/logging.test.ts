import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApi } from "./app.ts";
import { observe } from "./observe.ts";
import { futureDate, startApi, type TestApi } from "./test/harness.ts";
import { type Served, serve } from "./test/serve.ts";
import { routeOf } from "./logging.ts";

// The API as the web server and `npm run api` run it: observe() in front, its log lines captured,
// along with anything else the process prints while the journey runs.
let api: TestApi;
let served: Served;
let url: string;
const lines: string[] = [];
const printed: string[] = [];

/** A log destination that keeps each line written. */
function linesInto(lines: string[]) {
  return new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
}

beforeAll(async () => {
  api = await startApi();
  const app = express();
  observe(app, { service: "api", logLevel: "info", destination: linesInto(lines) });
  app.use(createApi(api.deps));
  served = await serve(app);
  url = served.url;
});
afterAll(async () => {
  await served.close();
  await api.close();
});

async function call(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; requestId?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.requestId) headers["x-request-id"] = options.requestId;
  const res = await fetch(url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Waits for the line of a finished request (pino writes when the answer has gone). */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("request logs", () => {
  it("hold no code, password, token or personal data through register, verify, book and reset password", async () => {
    const spies = (["log", "info", "warn", "error"] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" "))),
    );
    const secrets: string[] = [];
    try {
      const doctor = await api.createDoctor({ username: "Dr Logline" });
      const email = api.unique("journey");
      const password = "Journey-Secret-1";
      const newPassword = "Journey-Secret-2";
      const profile = { username: "Zacharie Mbappe-Onana", email, phone: "698765432", password, userRole: "patient" };
      secrets.push(email, password, newPassword, profile.username, profile.phone);

      const registered = await call("POST", "/auth/register", { body: profile });
      expect(registered.status).toBe(201);
      await api.deliverMail();
      const verifyCode = api.mailer.lastCodeFor(email)!;
      secrets.push(verifyCode);
      expect(
        (await call("PUT", `/auth/verifyUser/${registered.body.id}`, { body: { otpCode: verifyCode } })).status,
      ).toBe(200);

      const login = await call("POST", "/auth/login", { body: { email, password, role: "patient" } });
      expect(login.status).toBe(200);
      const token = login.body.token.token as string;
      secrets.push(token);

      const booked = await call("POST", "/appointment", {
        token,
        body: {
          doctorId: doctor.user.id,
          type: "online",
          date: futureDate(4),
          time: "10:00",
          comment: "Chest pain since Monday",
        },
      });
      expect(booked.status).toBe(201);
      secrets.push("Chest pain since Monday");
      expect((await call("GET", "/appointment?page=1", { token })).status).toBe(200);

      expect((await call("POST", "/auth/forgot-password", { body: { email } })).status).toBe(200);
      await api.deliverMail();
      const resetCode = api.mailer.lastCodeFor(email)!;
      expect(resetCode).not.toBe(verifyCode);
      secrets.push(resetCode);
      expect(
        (await call("POST", "/auth/reset-password", { body: { email, code: resetCode, password: newPassword } }))
          .status,
      ).toBe(200);
      const again = await call("POST", "/auth/login", { body: { email, password: newPassword, role: "patient" } });
      expect(again.status).toBe(200);
      secrets.push(again.body.token.token);
      // A wrong password and a hostile query string are logged too, and still without them.
      expect(
        (await call("POST", "/auth/login", { body: { email, password: "Wrong-Guess-99", role: "patient" } })).status,
      ).toBe(401);
      secrets.push("Wrong-Guess-99");
      await call("GET", `/doctor?name=${encodeURIComponent(profile.username)}&email=${encodeURIComponent(email)}`);
      await settle();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }

    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(10);
    const everything = [...lines, ...printed].join("\n");
    for (const secret of secrets) {
      expect(everything, `a log line holds "${secret}"`).not.toContain(secret);
      expect(everything, `a log line holds "${secret}" URL-encoded`).not.toContain(encodeURIComponent(secret));
    }
    // Nor the token's or the code's tail, nor any 6-digit run (a code, whatever it is).
    expect(everything).not.toMatch(/\b\d{6}\b/);
  });

  it("write one JSON line per request: method, route, status, duration and request id", async () => {
    lines.length = 0;
    const res = await call("PUT", "/auth/verifyUser/123456", {
      body: { otpCode: "654321" },
      requestId: "web-request-0001",
    });
    await settle();
    expect(res.headers.get("x-request-id")).toBe("web-request-0001");
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: "info",
      service: "api",
      msg: "request",
      requestId: "web-request-0001",
      method: "PUT",
      route: "/auth/verifyUser/:param",
      status: res.status,
    });
    expect(typeof entry.durationMs).toBe("number");
    expect(typeof entry.time).toBe("string");
    // Nothing else about the request: no header, no body.
    expect(Object.keys(entry).sort()).toEqual([
      "durationMs",
      "level",
      "method",
      "msg",
      "pid",
      "requestId",
      "route",
      "service",
      "status",
      "time",
    ]);
  });

  it("make a request id of their own when none comes, or when the one sent could smuggle text into a line", async () => {
    lines.length = 0;
    const plain = await call("GET", "/speciality");
    const hostile = await call("GET", "/speciality", { requestId: 'x", "status": 200, "admin": "yes' });
    await settle();
    const ids = lines.map((line) => JSON.parse(line).requestId);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(plain.headers.get("x-request-id")).toBe(ids[0]);
    expect(hostile.headers.get("x-request-id")).toBe(ids[1]);
  });
});

describe("routeOf", () => {
  it("drops the query and hides ids, e-mail addresses and long tokens", () => {
    expect(routeOf("/reset-password?token=abc&email=a@b.c")).toBe("/reset-password");
    expect(routeOf("/api/appointment/2f1c0e9a-1b2c-4d5e-8f90-123456789abc/accept")).toBe(
      "/api/appointment/:param/accept",
    );
    expect(routeOf("/cities/42")).toBe("/cities/:param");
    expect(routeOf("/someone@example.com")).toBe("/:param");
    expect(routeOf("/" + "a".repeat(40))).toBe("/:param");
    // A calendar feed's secret (docs/calendars.md), with or without its extension, even without a digit.
    expect(routeOf(`/calendar/feed/${"Ab_-".repeat(10)}abc.ics`)).toBe("/calendar/feed/:param");
    expect(routeOf(`/api/calendar/feed/${"Ab_-".repeat(10)}abc`)).toBe("/api/calendar/feed/:param");
    expect(routeOf("/")).toBe("/");
  });
});

describe("request lines of failures", () => {
  // A bare server with observe() in front: an answer of ours that failed, and a client that left.
  const failures: string[] = [];
  let base: string;
  let bare: Served;
  let seenId: string | undefined;
  let arrived = Promise.withResolvers<void>();
  beforeAll(async () => {
    const app = express();
    observe(app, { service: "web", logLevel: "info", destination: linesInto(failures) });
    app.get("/broken/42", (req, res) => {
      seenId = req.id;
      res.status(500).end();
    });
    app.get("/hangs", () => arrived.resolve());
    bare = await serve(app);
    base = bare.url;
  });
  afterAll(() => bare.close());

  it("say 'request failed' at error level for a 5xx answer, with the id the routes read", async () => {
    failures.length = 0;
    const res = await fetch(`${base}/broken/42?token=abc`, { headers: { "x-request-id": "web-request-0500" } });
    expect(res.status).toBe(500);
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    expect(seenId).toBe("web-request-0500");
    expect(failures.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "request failed",
        requestId: "web-request-0500",
        method: "GET",
        route: "/broken/:param",
        status: 500,
        error: "Error",
      }),
    ]);
    expect(failures.join("\n")).not.toContain("token");
  });

  it("give a request the client broke off status 499, in one line", async () => {
    failures.length = 0;
    arrived = Promise.withResolvers<void>();
    const controller = new AbortController();
    const answer = fetch(`${base}/hangs`, { signal: controller.signal }).catch((error: Error) => error);
    // Broken off once the server has the request: earlier, there would be no request to log.
    await arrived.promise;
    controller.abort();
    expect(await answer).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    expect(failures.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: "info", msg: "request", method: "GET", route: "/hangs", status: 499 }),
    ]);
  });
});
