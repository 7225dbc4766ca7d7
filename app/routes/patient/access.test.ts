// 'Who saw my data' names everyone who may appear in a patient's log by their role, in both
// languages: a role without its words would show the translation key to the patient.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROLES } from "../../../contract/constants.ts";
import { supportedLanguages } from "../../i18n.ts";

const accessTexts = (language: string) =>
  JSON.parse(readFileSync(new URL(`../../../locales/${language}/patient.json`, import.meta.url), "utf8")).access;

describe.each(supportedLanguages)("the access log in %s", (language) => {
  const texts = accessTexts(language);
  it.each(ROLES)("names the role %s", (role) => {
    expect(texts.roles[role]).toEqual(expect.any(String));
  });
  // What the front desk records (api/reception): looking a patient up, making the record, booking.
  it.each(["read_patient", "create_patient", "create_appointment"])("says what the desk did: %s", (what) => {
    expect(texts.what[what]).toEqual(expect.any(String));
  });
});
