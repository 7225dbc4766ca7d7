import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi, refusal } from "./harness.ts";

describe("the API harness", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it("answers unknown paths with a JSON 404", async () => {
    const res = await api.request("GET", "/nowhere");
    expect(res.status).toBe(404);
    expect(refusal(res).message).toBe("Not found");
  });

  it("seeds reference data and creates users with tokens", async () => {
    const ref = await api.reference();
    expect(ref.cameroon.name).toBe("Cameroon");
    expect(ref.specialities[0].name).toBe("General practice");
    const doctor = await api.createDoctor({ specialities: ["Cardiology"] });
    expect(doctor.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
