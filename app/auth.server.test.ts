import { RouterContextProvider, type MiddlewareFunction } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { pageOf, requireUser, safeRedirect } from "./auth.server.ts";
import { servicesContext } from "./context.ts";
import { sessionStorage } from "./session.server.ts";

const post = (url: string) => new Request(`http://127.0.0.1:3000${url}`, { method: "POST" });

describe("pageOf", () => {
  it("is the page itself for a document post", () => {
    expect(pageOf(post("/doctor/appointments?tab=open&page=2"))).toBe("/doctor/appointments?tab=open&page=2");
  });
  it("drops the data suffix and the router's parameters of a client-side post", () => {
    expect(pageOf(post("/doctor/appointments.data?tab=open&index"))).toBe("/doctor/appointments?tab=open");
    expect(pageOf(post("/doctor/consultations.data?_routes=routes%2Fdoctor%2Fconsultations&search=flu"))).toBe(
      "/doctor/consultations?search=flu",
    );
    expect(pageOf(post("/_root.data"))).toBe("/");
  });
});

describe("safeRedirect", () => {
  it("keeps paths of this site", () => {
    expect(safeRedirect("/health/doctors?x=1", "/")).toBe("/health/doctors?x=1");
    expect(safeRedirect("/doctor/appointments?tab=open#top", "/")).toBe("/doctor/appointments?tab=open#top");
  });

  it("refuses every way out of this site", () => {
    const attacks = [
      "https://example.org/",
      "http:/example.org",
      "javascript:alert(1)",
      "//example.org",
      "/\\example.org",
      "\\\\example.org",
      "/\t/example.org",
      "/\n/example.org",
      "/\r\n/example.org",
      "\t//example.org",
      " //example.org",
      "/\u0000/example.org",
      "/../example.org",
      "",
      null,
      undefined,
    ];
    for (const outside of attacks) expect(safeRedirect(outside, "/home"), JSON.stringify(outside)).toBe("/home");
  });

  it("always gives a valid Location header", () => {
    expect(safeRedirect("/health\u2028x", "/")).toBe("/health%E2%80%A8x");
    expect(safeRedirect("/%0d%0aSet-Cookie:x=1", "/")).toBe("/%0d%0aSet-Cookie:x=1");
    expect(safeRedirect("/\r\nSet-Cookie: x=1", "/")).toBe("/");
    for (const to of ["/health\u2028x", "/é", "/a b"])
      expect(() => new Headers({ location: safeRedirect(to, "/") })).not.toThrow();
  });
});

describe("requireUser", () => {
  const services = (scopes: string[]) => ({
    callApi: async () => ({ status: 200, contentType: undefined, text: "" }),
    observeApiCall: () => {},
    pageScopes: { open: () => `scope-${scopes.push("open")}`, close: () => void scopes.push("close") },
  });
  async function signedIn(role: "patient" | "doctor", scopes: string[]) {
    const session = await sessionStorage.getSession();
    session.set("token", "a-token");
    session.set("user", { id: "u1", role, username: "Someone", avatarUrl: null });
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    const request = new Request("http://127.0.0.1/doctor/appointments", { headers: { cookie } });
    const context = new RouterContextProvider();
    context.set(servicesContext, services(scopes));
    return {
      request,
      context,
      url: new URL(request.url),
      params: {},
      pattern: "/doctor/appointments",
    } as unknown as Parameters<MiddlewareFunction<Response>>[0];
  }

  it("reads the session once per request: the role layout under the app layout checks the role of the user already read", async () => {
    const scopes: string[] = [];
    const args = await signedIn("doctor", scopes);
    const reads = vi.spyOn(sessionStorage, "getSession");
    try {
      const inner = async () => (await requireUser("doctor")(args, async () => new Response("the page"))) as Response;
      const response = await requireUser()(args, inner);
      expect(await (response as Response).text()).toBe("the page");
      expect(reads).toHaveBeenCalledTimes(1);
      // One page scope, opened and closed once.
      expect(scopes).toEqual(["open", "close"]);
    } finally {
      reads.mockRestore();
    }
  });

  it("still sends a user of another role home from the inner layout", async () => {
    const args = await signedIn("patient", []);
    const inner = async () => (await requireUser("doctor")(args, async () => new Response("the page"))) as Response;
    const thrown = await Promise.resolve(requireUser()(args, inner)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/health/doctors");
  });
});
