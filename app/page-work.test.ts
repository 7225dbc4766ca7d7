// Work per page (docs/performance.md): the upstream calls the web tier makes to serve the
// signed-in patient's find-a-doctor page and the doctor's appointments page, counted on the real
// route modules (middleware and loaders, as React Router runs them) against the real API. Each
// authenticated call is one bearer-token lookup in the API, so the count bounds those too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticHandler, RouterContextProvider, type LoaderFunction, type MiddlewareFunction, type StaticHandlerContext } from "react-router";
import { startApi, type TestApi } from "../api/test/harness.ts";
import { insertAppointment } from "../api/appointment/test-factories.ts";
import { resetConfigForTests } from "../config.ts";
import { tokenChecks } from "../api/http.ts";

let api: TestApi;
let handler: ReturnType<typeof createStaticHandler>;
let detectLanguage: (request: Request, context: RouterContextProvider) => Promise<void>;
let sessionFor: (token: string, user: { id: string; role: "patient" | "doctor"; username: string }) => Promise<string>;
const calls: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  api = await startApi();
  // The web tier reads API_URL once, when its modules load: they are imported after it is set.
  process.env.API_URL = api.url;
  resetConfigForTests();
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === new URL(api.url).origin) calls.push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
    return realFetch(input, init);
  }) as typeof fetch;
  const [root, appLayout, health, doctors, doctor, appointments, session, i18n] = await Promise.all([
    import("./root.tsx"),
    import("./routes/app-layout.tsx"),
    import("./routes/health/layout.tsx"),
    import("./routes/health/doctors.tsx"),
    import("./routes/doctor/layout.tsx"),
    import("./routes/doctor/appointments.tsx"),
    import("./session.server.ts"),
    import("./i18n.server.ts"),
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
  // The same nesting as app/routes.ts, for the two pages measured.
  handler = createStaticHandler([
    route("root", root, {
      path: "/",
      children: [
        route("routes/app-layout", appLayout, {
          children: [
            route("routes/health/layout", health, { path: "health", children: [route("routes/health/doctors", doctors, { path: "doctors" })] }),
            route("routes/doctor/layout", doctor, { path: "doctor", children: [route("routes/doctor/appointments", appointments, { path: "appointments" })] }),
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
  globalThis.fetch = realFetch;
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
  const request = new Request(`http://127.0.0.1${path}`, { headers: { cookie } });
  // As the request handler does before React Router (app/request-handler.server.ts).
  const requestContext = new RouterContextProvider();
  await detectLanguage(request, requestContext);
  const result = await handler.query(request, {
    requestContext,
    generateMiddlewareResponse: async (query) => {
      const context = await query(new Request(`http://127.0.0.1${path}`, { headers: { cookie } }));
      if (context instanceof Response) return context;
      return Response.json(context.errors ? { errors: String(Object.values(context.errors)[0]) } : context.loaderData);
    },
  });
  const body = (await (result as Response).json()) as StaticHandlerContext["loaderData"] & { errors?: string };
  if (body.errors) throw new Error(body.errors);
  return { calls: [...calls], tokenChecks: (await tokenChecksSoFar()) - checksBefore, data: body };
}

describe("upstream calls per page", () => {
  it("the patient's find-a-doctor page: the summary (bell and home cards) and the doctor search, the reference lists kept", async () => {
    const { user, token } = await api.createPatient({ username: "Page Patient" });
    const { user: doc } = await api.createDoctor({ username: "Dr Page" });
    // More appointments than the cards show, so that fetching a list to pick from them would show.
    for (let i = 0; i < 6; i++) await insertAppointment(api.db, { patientId: user.id, doctorId: doc.id, status: i % 2 ? "confirmed" : "pending" });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    await load("/health/doctors", cookie); // the first page also fills the five-minute reference lists
    const { calls, tokenChecks, data } = await load("/health/doctors", cookie);
    expect(calls).toEqual([`GET /patient/summary?dashboard=1`, expect.stringMatching(/^GET \/doctor\?/)]);
    expect(tokenChecks).toBe(1);
    const dashboard = (data["routes/health/doctors"] as { dashboard: { total: number; confirmed: unknown[]; upcoming: unknown } }).dashboard;
    expect(dashboard.total).toBe(6);
    expect(dashboard.confirmed).toHaveLength(3);
    expect(dashboard.upcoming).not.toBeNull();
  });

  it("the doctor's appointments page: the summary (bell and verification) and the list; the admin's approval shows on the next page", async () => {
    const { user, token } = await api.createDoctor({ username: "Dr Pending", verification: "pending" });
    const admin = await api.createAdmin();
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const before = await load("/doctor/appointments", cookie);
    expect(before.calls).toEqual(["GET /doctor/summary", expect.stringMatching(/^GET \/doctor\/doctor_appointments\?/)]);
    expect(before.tokenChecks).toBe(1);
    expect((before.data["routes/app-layout"] as { verification: string | null }).verification).toBe("pending");

    const approved = await api.request("POST", `/admin/doctors/${user.id}/approve`, { token: admin.token, body: {} });
    expect(approved.status).toBe(200);
    const after = await load("/doctor/appointments", cookie);
    expect(after.calls).toHaveLength(2);
    expect(after.tokenChecks).toBe(1);
    expect((after.data["routes/app-layout"] as { verification: string | null }).verification).toBe("verified");
  });

  it("a session ended elsewhere (logout in another tab) stops at once: the next page goes to the login", async () => {
    const { user, token } = await api.createPatient({ username: "Page Leaver" });
    const cookie = await sessionFor(token, { id: user.id, role: "patient", username: user.username });
    expect((await load("/health/doctors", cookie)).tokenChecks).toBe(1);
    expect((await api.request("POST", "/auth/logout", { token })).status).toBe(204);
    const request = new Request("http://127.0.0.1/health/doctors", { headers: { cookie } });
    const requestContext = new RouterContextProvider();
    await detectLanguage(request, requestContext);
    const answer = await handler.query(request, { requestContext, generateMiddlewareResponse: async (query) => query(request) as Promise<Response> });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("location")).toMatch(/^\/login/);
  });

  it("a doctor whose summary fails is not taken for verified", async () => {
    const { user, token } = await api.createDoctor({ username: "Dr Offline" });
    const cookie = await sessionFor(token, { id: user.id, role: "doctor", username: user.username });
    const real = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes("/doctor/summary") ? new Response("{}", { status: 500 }) : real(input, init)) as typeof fetch;
    try {
      const { data } = await load("/doctor/appointments", cookie);
      expect((data["routes/app-layout"] as { verification: string | null }).verification).toBeNull();
    } finally {
      globalThis.fetch = real;
    }
  });
});
