import { describe, expect, it } from "vitest";
import { z } from "zod";
import { countryList } from "../../contract/reference.ts";
import { refusal, setUpApi } from "./harness.ts";

describe("the API harness", () => {
  const api = setUpApi();

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

  it("checks an answer against the contract schema the test names, and a refusal against {message, code}", async () => {
    const countries = await api.request("GET", "/location/country", { answer: countryList });
    expect(countries.body[0].code).toBe("CM");
    // A schema that knows fewer fields than the answer has: the answer would come back changed.
    await expect(api.request("GET", "/location/country", { answer: z.array(z.object({ id: z.number() })) })).rejects.toThrow();
    // A field of the wrong type.
    await expect(api.request("GET", "/location/country", { answer: z.array(countryList.element.extend({ code: z.number() })) })).rejects.toThrow();
    // A refusal's body is not checked against the answer; refusal() reads it, and fails on any other body.
    const refused = await api.request("GET", "/location/city/nope", { answer: z.never() });
    expect(refusal(refused).code).toBe("invalid_country");
    expect(() => refusal(countries)).toThrow();
  });
});
