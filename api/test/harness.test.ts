import fs from "node:fs";
import path from "node:path";
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
    await expect(
      api.request("GET", "/location/country", { answer: z.array(z.object({ id: z.number() })) }),
    ).rejects.toThrow();
    // A field of the wrong type.
    await expect(
      api.request("GET", "/location/country", { answer: z.array(countryList.element.extend({ code: z.number() })) }),
    ).rejects.toThrow();
    // A refusal's body is not checked against the answer; refusal() reads it, and fails on any other body.
    const refused = await api.request("GET", "/location/city/nope", { answer: z.never() });
    expect(refusal(refused).code).toBe("invalid_country");
    expect(() => refusal(countries)).toThrow();
  });
});

describe("the API tests read answers through the contract", () => {
  // An answer read raw and handed to expect() checks a shape the test wrote by hand: it is read
  // with its contract schema (`answer`, matches(), refusal()) instead.
  function testFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory()
        ? entry.name === "node_modules"
          ? []
          : testFiles(file)
        : /\.test\.tsx?$/.test(entry.name)
          ? [file]
          : [];
    });
  }

  it("no test passes a raw .json() read to expect()", () => {
    // A body read with .json() and handed to expect() as it is (or through Array.isArray), from a
    // variable, a cast or a fetch awaited in place; a read wrapped in a schema's parse() is not raw.
    const raw =
      /expect\((?:Array\.isArray\()?\s*await\s+(?:\(\s*await\s+[^()]*(?:\([^()]*\))?\s*\)|\(?[\w.]+(?: as \w+\))?)\s*\.json\(\)/;
    const offenders = ["api", "app", "contract"]
      .flatMap(testFiles)
      .filter((file) => raw.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
