import { describe, expect, it } from "vitest";
import { pageOf, safeRedirect } from "./auth.server.ts";

const post = (url: string) => new Request(`http://127.0.0.1:3000${url}`, { method: "POST" });

describe("pageOf", () => {
  it("is the page itself for a document post", () => {
    expect(pageOf(post("/doctor/appointments?tab=open&page=2"))).toBe("/doctor/appointments?tab=open&page=2");
  });
  it("drops the data suffix and the router's parameters of a client-side post", () => {
    expect(pageOf(post("/doctor/appointments.data?tab=open&index"))).toBe("/doctor/appointments?tab=open");
    expect(pageOf(post("/doctor/consultations.data?_routes=routes%2Fdoctor%2Fconsultations&search=flu"))).toBe("/doctor/consultations?search=flu");
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
    for (const to of ["/health\u2028x", "/é", "/a b"]) expect(() => new Headers({ location: safeRedirect(to, "/") })).not.toThrow();
  });
});
