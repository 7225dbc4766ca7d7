// What the availability pages read from the API's refusals: the appointments a 409 lists, and the
// field a refusal is about.
import { describe, expect, it } from "vitest";
import { conflictsOf, fieldOfRefusal } from "./availability.server.ts";

const listed = {
  id: "a1",
  status: "confirmed",
  date: "2026-12-08",
  time: "2026-12-08T10:00:00+01:00",
  Doctor: { id: "d1", username: "Dr Who", avatarUrl: null },
  Patient: { id: "p1", username: "Ama", avatarUrl: null },
};

describe("conflictsOf", () => {
  it("reads the appointments of a 409 appointments_in_period", () => {
    const body = {
      message: "…",
      code: "appointments_in_period",
      appointments: [listed, { ...listed, id: "a2", Patient: null }],
    };
    expect(conflictsOf({ status: 409, code: "appointments_in_period", body })).toEqual([
      { id: "a1", date: "2026-12-08", time: "2026-12-08T10:00:00+01:00", patient: "Ama", doctor: "Dr Who" },
      { id: "a2", date: "2026-12-08", time: "2026-12-08T10:00:00+01:00", patient: null, doctor: "Dr Who" },
    ]);
  });

  it("is null for any other refusal", () => {
    expect(conflictsOf({ status: 409, code: "closure_exists", body: { appointments: [listed] } })).toBeNull();
    expect(conflictsOf({ status: 400, code: "appointments_in_period", body: { appointments: [listed] } })).toBeNull();
    expect(conflictsOf({ status: 503, code: "network", body: {} })).toBeNull();
  });
});

describe("fieldOfRefusal", () => {
  const fields = { invalid_notice: "minimumNoticeHours", closure_exists: "date" };
  it("names the field of a code it knows, whatever the status", () => {
    expect(fieldOfRefusal({ status: 400, code: "invalid_notice" }, fields)).toBe("minimumNoticeHours");
    expect(fieldOfRefusal({ status: 409, code: "closure_exists" }, fields)).toBe("date");
  });
  it("is null for a code it does not know, or none", () => {
    expect(fieldOfRefusal({ status: 400, code: "invalid" }, fields)).toBeNull();
    expect(fieldOfRefusal({ status: 400, code: "toString" }, fields)).toBeNull();
    expect(fieldOfRefusal({ status: 503 }, fields)).toBeNull();
  });
});
