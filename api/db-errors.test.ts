import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "./db-errors.ts";

describe("isUniqueViolation", () => {
  const slot = "appointments_doctor_slot_active";

  it("recognises a violation of the named index, as the driver throws it or wrapped by drizzle", () => {
    expect(isUniqueViolation({ code: "23505", constraint: slot }, slot)).toBe(true);
    expect(
      isUniqueViolation(Object.assign(new Error("query failed"), { cause: { code: "23505", constraint: slot } }), slot),
    ).toBe(true);
    expect(
      isUniqueViolation(
        new Error("a", { cause: new Error("b", { cause: { code: "23505", constraint: slot } }) }),
        slot,
      ),
    ).toBe(true);
  });

  it("counts a violation whose driver does not name the index", () => {
    expect(isUniqueViolation(Object.assign(new Error("query failed"), { cause: { code: "23505" } }), slot)).toBe(true);
  });

  it("refuses another index's violation, other errors and non-errors", () => {
    expect(isUniqueViolation({ code: "23505", constraint: "users_email_lower" }, slot)).toBe(false);
    expect(isUniqueViolation({ code: "23503", constraint: slot }, slot)).toBe(false);
    expect(isUniqueViolation(new Error("boom"), slot)).toBe(false);
    for (const v of [undefined, null, "23505", 23505]) expect(isUniqueViolation(v, slot)).toBe(false);
  });

  it("stops at five wrappings, so a cyclic cause chain cannot loop", () => {
    const cyclic: { code?: string; cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(isUniqueViolation(cyclic, slot)).toBe(false);
  });
});
