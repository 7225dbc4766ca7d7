// What the availability pages read from the API's refusals: the appointments a 409 lists, and where
// the form says the refusal.
import { describe, expect, it } from "vitest";
import { conflictsOf, refusalOf } from "./availability.server.ts";
import type { UpstreamFailure } from "./upstream-errors.ts";

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
      total: 75,
    };
    expect(conflictsOf({ status: 409, code: "appointments_in_period", body })).toEqual({
      list: [
        { id: "a1", date: "2026-12-08", time: "2026-12-08T10:00:00+01:00", patient: "Ama", doctor: "Dr Who" },
        { id: "a2", date: "2026-12-08", time: "2026-12-08T10:00:00+01:00", patient: null, doctor: "Dr Who" },
      ],
      total: 75,
    });
  });

  it("counts the listed ones when an older API gives no total", () => {
    const body = { message: "…", code: "appointments_in_period", appointments: [listed] };
    expect(conflictsOf({ status: 409, code: "appointments_in_period", body })?.total).toBe(1);
  });

  it("is null for any other refusal", () => {
    expect(conflictsOf({ status: 409, code: "closure_exists", body: { appointments: [listed] } })).toBeNull();
    expect(conflictsOf({ status: 400, code: "appointments_in_period", body: { appointments: [listed] } })).toBeNull();
    expect(conflictsOf({ status: 503, code: "network", body: {} })).toBeNull();
  });
});

describe("refusalOf", () => {
  const fields = { invalid_notice: "minimumNoticeHours", closure_exists: "date" };
  // A stand-in for conform's submission: what the form is told to show.
  const submission = { reply: (options: object) => ({ status: "error" as const, ...options }) };
  const refused = (failure: UpstreamFailure) => refusalOf(submission, failure, fields, "fallback.key").result;

  it("says a code it knows beside its field, whatever the status", () => {
    expect(refused({ status: 400, code: "invalid_notice" })).toMatchObject({
      fieldErrors: { minimumNoticeHours: ["doctor:availability.noticeRange"] },
    });
    expect(refused({ status: 409, code: "closure_exists" })).toMatchObject({
      fieldErrors: { date: [expect.any(String)] },
    });
  });

  it("says anything else above the form, with the words of its code or the fallback", () => {
    expect(refused({ status: 409, code: "doctor_absent" })).toMatchObject({
      formErrors: ["common:availability.doctorAbsent"],
    });
    expect(refused({ status: 400, code: "toString" })).toMatchObject({ formErrors: ["fallback.key"] });
    expect(refused({ status: 503 })).toMatchObject({ formErrors: [expect.any(String)] });
  });

  it("shows no error when the refusal lists appointments: the list asks instead", () => {
    const body = { code: "appointments_in_period", appointments: [listed] };
    const { result, conflicts } = refusalOf(
      submission,
      { status: 409, code: "appointments_in_period", body },
      fields,
      "x",
    );
    expect(result).toEqual({ status: "error" });
    expect(conflicts?.list).toHaveLength(1);
  });
});
