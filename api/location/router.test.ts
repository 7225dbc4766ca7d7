import { describe, expect, it } from "vitest";
import { setUpApi } from "../test/harness.ts";
import { COUNTRIES } from "../db/reference.ts";
import { cityList, countryList } from "../../contract/reference.ts";

const api = setUpApi();

describe("GET /location/country", () => {
  it("lists {id, name, code}, Cameroon first then by name, without signing in", async () => {
    const res = await api.request("GET", "/location/country", { answer: countryList });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(COUNTRIES.length);
    expect(Object.keys(res.body[0]).sort()).toEqual(["code", "id", "name"]);
    expect(res.body[0]).toMatchObject({ name: "Cameroon", code: "CM" });
    const rest = res.body.slice(1).map((c: { name: string }) => c.name);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
  });
});

describe("GET /location/city/{countryId}", () => {
  it("lists the country's cities {id, name} by name", async () => {
    const ref = await api.reference();
    const res = await api.request("GET", `/location/city/${ref.cameroon.id}`, { answer: cityList });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(COUNTRIES.find((c) => c.code === "CM")!.cities.length);
    expect(Object.keys(res.body[0]).sort()).toEqual(["id", "name"]);
    const names = res.body.map((c: { name: string }) => c.name);
    expect(names).toContain("Douala");
    expect(names).toContain("Yaoundé");
    expect(names).toEqual([...names].sort());
    expect(res.body.find((c) => c.name === "Douala")!.id).toBe(ref.city("Douala").id);
  });

  it("lists only that country's cities", async () => {
    const countries = (await api.request("GET", "/location/country", { answer: countryList })).body;
    const gabon = countries.find((c) => c.code === "GA")!;
    const res = await api.request("GET", `/location/city/${gabon.id}`, { answer: cityList });
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(["Franceville", "Libreville", "Port-Gentil"]);
  });

  it("answers an unknown country with a JSON 404", async () => {
    const res = await api.request("GET", "/location/city/99999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Country not found", code: "not_found" });
  });

  it.each(["abc", "0", "-1", "1.5", "99999999999999999999"])("answers an invalid id %s with a JSON 400", async (id) => {
    const res = await api.request("GET", `/location/city/${id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Invalid country", code: "invalid_country" });
  });
});
