// The consultation form and the API must agree on the consultation types: a record the API
// accepts must be one the form can offer and both languages can name.
import { describe, expect, it } from "vitest";
import en from "../../../locales/en/doctor.json" with { type: "json" };
import fr from "../../../locales/fr/doctor.json" with { type: "json" };
import { CONSULTATION_TYPES as API_TYPES } from "../../../contract/constants.ts";
import { consultationSchema } from "./consultation-schema.ts";

const filled = { patientId: "p1", diagnosis: "Malaria" };

describe("consultation types", () => {
  it("the form accepts every type the API accepts, and no other", () => {
    for (const type of API_TYPES) expect(consultationSchema.safeParse({ ...filled, type }).success, type).toBe(true);
    expect(consultationSchema.safeParse({ ...filled, type: "surgery" }).success).toBe(false);
  });

  it("every type has a name in English and in French", () => {
    for (const type of API_TYPES) {
      expect((en.consultationType as Record<string, string>)[type], `en ${type}`).toBeTruthy();
      expect((fr.consultationType as Record<string, string>)[type], `fr ${type}`).toBeTruthy();
    }
  });
});
