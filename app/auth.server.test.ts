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
  it("keeps paths of this site and refuses the others", () => {
    expect(safeRedirect("/health/doctors?x=1", "/")).toBe("/health/doctors?x=1");
    for (const outside of ["https://example.org/", "//example.org", "/\\example.org", "", null, undefined]) {
      expect(safeRedirect(outside, "/home")).toBe("/home");
    }
  });
});
