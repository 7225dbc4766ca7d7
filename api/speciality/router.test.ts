import { describe, expect, it } from "vitest";
import { setUpApi } from "../test/harness.ts";
import { SPECIALITIES } from "../db/reference.ts";
import { specialityList } from "../../contract/reference.ts";

const api = setUpApi();

describe("GET /speciality", () => {
  it("lists {id, name, nameFr, icon, isGeneral}, General practice first then by name, without signing in", async () => {
    const res = await api.request("GET", "/speciality", { answer: specialityList });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(SPECIALITIES.length);
    expect(Object.keys(res.body[0]).sort()).toEqual(["icon", "id", "isGeneral", "name", "nameFr"]);
    expect(res.body[0]).toMatchObject({
      name: "General practice",
      nameFr: "Médecine générale",
      isGeneral: true,
      icon: "stethoscope",
    });
    const rest = res.body.slice(1);
    expect(rest.every((s: { isGeneral: boolean }) => !s.isGeneral)).toBe(true);
    const names = rest.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    expect(res.body.find((s) => s.name === "Cardiology")!.nameFr).toBe("Cardiologie");
  });
});
