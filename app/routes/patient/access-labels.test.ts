// Every kind of access the API records about a patient (auditPatients calls: action and what) has
// its own words on 'Who saw my data' in both languages, not the generic 'Read your data' fallback.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROLES } from "../../../contract/constants.ts";
import en from "../../../locales/en/patient.json" with { type: "json" };
import fr from "../../../locales/fr/patient.json" with { type: "json" };

const api = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../api");

function recordedKinds() {
  const kinds = new Set<string>();
  for (const file of readdirSync(api, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    const source = readFileSync(path.join(api, file), "utf8");
    for (const m of source.matchAll(/auditPatients\([^;]*?"(create|read|update|delete)",\s*"([a-z_]+)"/g))
      kinds.add(`${m[1]}_${m[2]}`);
  }
  return [...kinds].sort();
}

it("names every recorded access in English and French", () => {
  const kinds = recordedKinds();
  expect(kinds.length).toBeGreaterThan(10);
  const what = { en: en.access.what as Record<string, string>, fr: fr.access.what as Record<string, string> };
  expect(kinds.filter((k) => !what.en[k])).toEqual([]);
  expect(kinds.filter((k) => !what.fr[k])).toEqual([]);
});

it("names every role that may appear in the log in English and French", () => {
  const roles = { en: en.access.roles as Record<string, string>, fr: fr.access.roles as Record<string, string> };
  expect(ROLES.filter((role) => !roles.en[role])).toEqual([]);
  expect(ROLES.filter((role) => !roles.fr[role])).toEqual([]);
});
