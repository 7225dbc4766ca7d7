// Work per page (docs/performance.md): the upstream calls the web tier makes to serve the
// signed-in patient's find-a-doctor page and the doctor's appointments page, counted on the real
// route modules (middleware and loaders, as React Router runs them) against the real API. Each
// authenticated call is one bearer-token lookup in the API, so the count bounds those too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStaticHandler,
  RouterContextProvider,
  type LoaderFunction,
  type MiddlewareFunction,
  type StaticHandlerContext,
} from "react-router";
import { futureDate, startApi, type TestApi, UNBOUND_BOOKINGS } from "../../api/test/harness.ts";
import { insertAppointment } from "../../api/appointment/test-factories.ts";
import { tokenChecks } from "../../api/http.ts";
import { watchStatements } from "../../api/db/index.ts";
import type { RequestListener } from "node:http";
import { createApi } from "../../api/app.ts";
import { inProcessTransport } from "../../api/in-process.ts";
import { closePageScope, openPageScope } from "../../api/auth/page-scope.ts";
import { httpTransport, type ApiTransport, type WebServices } from "../../contract/api-transport.ts";
import { servicesContext } from "../../app/context.ts";

let api: TestApi;
let handler: ReturnType<typeof createStaticHandler>;
let detectLanguage: (request: Request, context: RouterContextProvider) => Promise<void>;
let sessionFor: (token: string, user: { id: string; role: "patient" | "doctor"; username: string }) => Promise<string>;
const calls: string[] = [];

/**
 * What server.ts hands the web app when the API runs in its own process: one token check per page.
 * The transport is HTTP to the test API (its calls are counted below) unless a test gives another.
 */
const servicesWith = (callApi: ApiTransport): WebServices => ({
  callApi,
  pageScopes: { open: openPageScope, close: closePageScope },
  observeApiCall: () => {},
});
let services: WebServices;

/** A request's context as app/request-handler.server.ts makes it, before React Router runs. */
async function contextFor(request: Request) {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  await detectLanguage(request, context);
  return context;
}

beforeAll(async () => {
  api = await startApi({ bookingLimits: UNBOUND_BOOKINGS });
  // Each call over HTTP is recorded: what the page asked the API.
  const overHttp = httpTransport(api.url);
  services = servicesWith((call, timeoutMs) => {
    calls.push(`${call.method} ${call.url}`);
    return overHttp(call, timeoutMs);
  });
  const [root, appLayout, health, doctors, doctor, appointments, notifications, patientAccess, session, i18n] =
    await Promise.all([
      import("../../app/root.tsx"),
      import("../../app/routes/app-layout.tsx"),
      import("../../app/routes/health/layout.tsx"),
      import("../../app/routes/health/doctors.tsx"),
      import("../../app/routes/doctor/layout.tsx"),
      import("../../app/routes/doctor/appointments.tsx"),
      import("../../app/routes/notifications.tsx"),
      import("../../app/routes/patient/access.tsx"),
      import("../../app/session.server.ts"),
      import("../../app/i18n.server.ts"),
    ]);
  detectLanguage = i18n.detectLanguage;
  // Route modules type their loaders with their own generated argument types: as React Router's
  // own route table does, they are taken as plain loaders and middleware here.
  const route = (id: string, m: { loader?: unknown; middleware?: unknown }, extra: Record<string, unknown>) => ({
    id,
    loader: m.loader as LoaderFunction | undefined,
    middleware: m.middleware as MiddlewareFunction[] | undefined,
    ...extra,
  });
  // The same nesting as app/routes.ts, for the pages measured.
  handler = createStaticHandler([
    route("root", root, {
      path: "/",
      children: [
        route("routes/app-layout", appLayout, {
          children: [
            route("routes/health/layout", health, {
              path: "health",
              children: [route("routes/health/doctors", doctors, { path: "doctors" })],
            }),
            route("routes/doctor/layout", doctor, {
              path: "doctor",
              children: [route("routes/doctor/appointments", appointments, { path: "appointments" })],
            }),
            route("routes/notifications", notifications, { path: "notifications" }),
            route("routes/patient/access", patientAccess, { path: "patient/profile/access" }),
          ],
        }),
      ],
    }),
  ]);
  sessionFor = async (token, user) => {
    const s = await session.sessionStorage.getSession();
    s.set("token", token);
    s.set("user", { ...user, avatarUrl: null });
    return (await session.sessionStorage.commitSession(s)).split(";")[0];
  };
});

afterAll(async () => {
  await api?.close();
});

const tokenChecksSoFar = async () => (await tokenChecks.get()).values.reduce((sum, v) => sum + v.value, 0);

/**
 * Serves `path` as a document request and returns the upstream calls it made, the bearer-token
 * lookups they cost in the API (which runs in this process, as the embedded one does), and the
 * loaders' data.
 */
async function load(path: string, cookie: string) {
  calls.length = 0;
  const checksBefore = await tokenChecksSoFar();
  const statements: string[] = [];
  // The mail outbox's worker polls on its own clock: its statements are not the page's.
  const unwatch = watchStatements((query) => void (query.includes('"mail_outbox"') || statements.push(query)));
  const request = new Request(`http://127.0.0.1${path}`, { headers: { cookie } });
  const requestContext = await contextFor(request);
  const result = await handler.query(request, {
    requestContext,
    generateMiddlewareResponse: async (query) => {
      const context = await query(new Request(`http://127.0.0.1${path}`, { headers: { cookie } }));
      if (context instanceof Response) return context;
      return Response.json(context.errors ? { errors: String(Object.values(context.errors)[0]) } : context.loaderData);
    },
  });
  unwatch();
  const body = (await (result as Response).json()) as StaticHandlerContext["loaderData"] & { errors?: string };
  if (body.errors) throw new Error(body.errors);
  return { calls: [...calls], tokenChecks: (await tokenChecksSoFar()) - checksBefore, statements, data: body };
}

describe("upstream calls per page", () => {
  it("the patient's find-a-doctor page: the summary (bell and home cards) and the doctor search, the reference lists kept", async () => {
    const { user, token } = await api.createPatient({ username: "Page Patient" });
    const { user: doc } = await api.createDoctor({ username: "Dr Page" });
    // More appointments than the cards show, so that fetching a list to pick from them would show.
    for (let i = 0; i < 6; i++)
      await insertAppointment(api.db, {
        patientId: user.id,
        doctorId: doc.id,
        status: i % 2 ? "confirmed" : "pending",
      });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    await load("/health/doctors", cookie); // the first page also fills the five-minute reference lists
    const { calls, tokenChecks, data, statements } = await load("/health/doctors", cookie);
    expect(calls).toEqual([`GET /patient/summary?dashboard=1`, expect.stringMatching(/^GET \/doctor\?/)]);
    expect(tokenChecks).toBe(1);
    // The token check; the bell count, the cards' ids and counts in one; the cards with their
    // proposal counts in one; the search's page with its count and its doctors' specialities in one.
    expect(statements, statements.join("\n")).toHaveLength(4);
    const dashboard = (
      data["routes/health/doctors"] as { dashboard: { total: number; confirmed: unknown[]; upcoming: unknown } }
    ).dashboard;
    expect(dashboard.total).toBe(6);
    expect(dashboard.confirmed).toHaveLength(3);
    expect(dashboard.upcoming).not.toBeNull();
    // The page's data is sent again as hydration data (docs/decisions/0003-*.md): a doctor's card
    // carries what it shows, not the contact, biography or country the API answers with.
    const found = (data["routes/health/doctors"] as { doctors: { doctors: Record<string, unknown>[] } }).doctors
      .doctors;
    expect(Object.keys(found[0]).sort()).toEqual([
      "City",
      "avatarUrl",
      "duty_hospital",
      "fee",
      "id",
      "nextSlot",
      "specialities",
      "startYear",
      "username",
    ]);
  });

  it("the doctor's appointments page: the summary (bell and verification) and the list; the admin's approval shows on the next page", async () => {
    const { user, token } = await api.createDoctor({ username: "Dr Pending", verification: "pending" });
    const admin = await api.createAdmin();
    const patient = await api.createPatient({ username: "Listed Patient" });
    for (let i = 0; i < 3; i++)
      await insertAppointment(api.db, { patientId: patient.user.id, doctorId: user.id, status: "confirmed" });
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const before = await load("/doctor/appointments", cookie);
    expect(before.calls).toEqual([
      "GET /doctor/summary",
      expect.stringMatching(/^GET \/doctor\/doctor_appointments\?/),
    ]);
    expect(before.tokenChecks).toBe(1);
    // The token check; the bell count and the verification state in one; then the list's own: the
    // page of ids with its count in one, the audit of the patients read, the cards with what they
    // show (the doctor's proposals, the slots they hold, the patients' missed appointments) in one.
    // The doctor's access (verification and specialities) is read for the open requests' tab only.
    expect(before.statements, before.statements.join("\n")).toHaveLength(5);
    expect((before.data["routes/app-layout"] as { verification: string | null }).verification).toBe("pending");
    // A card carries what it shows and acts on, not the whole appointment (docs/decisions/0003-*.md).
    const cards = (before.data["routes/doctor/appointments"] as { list: { appointments: Record<string, unknown>[] } })
      .list.appointments;
    expect(cards).toHaveLength(3);
    expect(Object.keys(cards[0]).sort()).toEqual([
      "Patient",
      "Speciality",
      "date",
      "doctorId",
      "endTime",
      "id",
      "myProposal",
      "patientMissed",
      "slotHeld",
      "status",
      "time",
      "type",
    ]);

    const approved = await api.request("POST", `/admin/doctors/${user.id}/approve`, { token: admin.token, body: {} });
    expect(approved.status).toBe(200);
    const after = await load("/doctor/appointments", cookie);
    expect(after.calls).toHaveLength(2);
    expect(after.tokenChecks).toBe(1);
    expect((after.data["routes/app-layout"] as { verification: string | null }).verification).toBe("verified");
  });

  it("the bell's page: one call, the summary with the page of the list, seen before the bell counts", async () => {
    const patient = await api.createPatient({ username: "Bell Patient" });
    const { user, token } = await api.createDoctor({ username: "Dr Bell Page" });
    for (let i = 0; i < 3; i++) {
      const booked = await api.request("POST", "/appointment", {
        token: patient.token,
        body: { doctorId: user.id, type: "online", date: futureDate(30 + i), time: "09:00" },
      });
      expect(booked.status).toBe(201);
    }
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const { calls, data } = await load("/notifications?page=1", cookie);
    expect(calls).toEqual(["GET /doctor/summary?notifications=1"]);
    expect((data["routes/app-layout"] as { attention: number }).attention).toBe(0);
    expect((data["routes/notifications"] as { list: { items: unknown[] } }).list.items).toHaveLength(3);
    // A hostile page number reads the first page instead of failing the page.
    expect((await load("/notifications?page=-4", cookie)).calls).toEqual(["GET /doctor/summary?notifications=1"]);
  });

  it("the patient's 'who saw my data' page: the summary and the access log", async () => {
    const { user, token } = await api.createPatient({ username: "Access Patient" });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    const { calls } = await load("/patient/profile/access?page=2", cookie);
    expect(calls).toEqual(["GET /patient/summary", "GET /patient/access-log?page=2"]);
  });

  it("a session ended elsewhere (logout in another tab) stops at once: the next page goes to the login", async () => {
    const { user, token } = await api.createPatient({ username: "Page Leaver" });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    expect((await load("/health/doctors", cookie)).tokenChecks).toBe(1);
    expect((await api.request("POST", "/auth/logout", { token })).status).toBe(204);
    const request = new Request("http://127.0.0.1/health/doctors", { headers: { cookie } });
    const requestContext = await contextFor(request);
    const answer = await handler.query(request, {
      requestContext,
      generateMiddlewareResponse: async (query) => query(request) as Promise<Response>,
    });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("location")).toMatch(/^\/login/);
  });

  it("a doctor whose summary fails is not taken for verified", async () => {
    const { user, token } = await api.createDoctor({ username: "Dr Offline" });
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const working = services;
    services = servicesWith((call, timeoutMs) =>
      call.url.startsWith("/doctor/summary")
        ? Promise.resolve({ status: 500, contentType: "application/json", text: "{}" })
        : working.callApi(call, timeoutMs),
    );
    try {
      const { data } = await load("/doctor/appointments", cookie);
      expect((data["routes/app-layout"] as { verification: string | null }).verification).toBeNull();
    } finally {
      services = working;
    }
  });
});

describe("the embedded API called in-process (api/in-process.ts)", () => {
  const overHttp = () => services;
  let http: WebServices;
  const embeddedApi = (listener: RequestListener) => servicesWith(inProcessTransport(listener).call);
  beforeAll(() => {
    http = overHttp();
    services = embeddedApi(createApi(api.deps) as unknown as RequestListener);
  });
  afterAll(() => {
    services = http;
  });

  it("serves the find-a-doctor page without an HTTP call: the same calls, one token check, the same statements and data", async () => {
    const { user, token } = await api.createPatient({ username: "In-process Patient" });
    const { user: doc } = await api.createDoctor({ username: "Dr In-process" });
    for (let i = 0; i < 6; i++)
      await insertAppointment(api.db, {
        patientId: user.id,
        doctorId: doc.id,
        status: i % 2 ? "confirmed" : "pending",
      });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    await load("/health/doctors", cookie);
    const inProcess = await load("/health/doctors", cookie);
    expect(inProcess.calls).toEqual([]);
    expect(inProcess.tokenChecks).toBe(1);
    expect(inProcess.statements, inProcess.statements.join("\n")).toHaveLength(4);
    const embedded = services;
    services = http;
    try {
      const overHttp = await load("/health/doctors", cookie);
      expect(overHttp.calls).toHaveLength(2);
      // The same page but for the booking form's idempotency key, new on every page.
      const withoutKeys = (data: unknown) =>
        JSON.parse(JSON.stringify(data, (key, value) => (key === "idempotencyKey" ? "" : value)));
      expect(withoutKeys(inProcess.data)).toEqual(withoutKeys(overHttp.data));
    } finally {
      services = embedded;
    }
  });

  it("ends a session the API refuses: the next page goes to the login", async () => {
    const { user, token } = await api.createDoctor({ username: "Dr In-process Leaver" });
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    expect((await load("/doctor/appointments", cookie)).calls).toEqual([]);
    expect((await api.request("POST", "/auth/logout", { token })).status).toBe(204);
    const request = new Request("http://127.0.0.1/doctor/appointments", { headers: { cookie } });
    const requestContext = await contextFor(request);
    const answer = await handler.query(request, {
      requestContext,
      generateMiddlewareResponse: async (query) => query(request) as Promise<Response>,
    });
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("location")).toMatch(/^\/login/);
  });

  // The page's budget is API_TIMEOUT_MS's default, 10 s: a shorter one would fail the other pages
  // of this file on a busy machine.
  it("answers 503 when the API does not answer within the page's budget, as over HTTP", {
    timeout: 60_000,
  }, async () => {
    const { user, token } = await api.createDoctor({ username: "Dr Hanging" });
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const embedded = services;
    services = embeddedApi(() => {});
    try {
      const request = new Request("http://127.0.0.1/doctor/appointments", { headers: { cookie } });
      const requestContext = await contextFor(request);
      const answer = await handler.query(request, {
        requestContext,
        generateMiddlewareResponse: async (query) => {
          const context = await query(request);
          return context instanceof Response ? context : new Response(null, { status: context.statusCode });
        },
      });
      expect((answer as Response).status).toBe(503);
    } finally {
      services = embedded;
    }
  });
});
