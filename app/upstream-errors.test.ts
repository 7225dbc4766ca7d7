// The one mapping from an upstream failure to words: every key it gives exists in both languages,
// a code is said in the words of what the user was doing, and unknown codes fall back to the
// screen's own "that failed".
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { upstreamErrorKey, type UpstreamAction } from "./upstream-errors.ts";

function translation(language: string, key: string): unknown {
  const [namespace, rest] = key.split(":");
  const file = JSON.parse(fs.readFileSync(path.join("locales", language, `${namespace}.json`), "utf8"));
  return rest!.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file);
}

describe("upstreamErrorKey", () => {
  it("says what happened in the words of what the user was doing", () => {
    expect(upstreamErrorKey({ status: 409, code: "slot_taken" }, "booking", "patient:book.failed")).toBe(
      "patient:book.slotTaken",
    );
    expect(
      upstreamErrorKey({ status: 409, code: "slot_taken" }, "proposalAccept", "patient:proposals.acceptFailed"),
    ).toBe("patient:proposals.slotTaken");
    expect(
      upstreamErrorKey({ status: 409, code: "slot_taken" }, "doctorAppointment", "doctor:toast.updateFailed"),
    ).toBe("doctor:reschedule.slotTaken");
    expect(upstreamErrorKey({ status: 400, code: "invalid_code" }, "code", "auth:verification.failed")).toBe(
      "auth:verification.invalidCode",
    );
    expect(upstreamErrorKey({ status: 400, code: "invalid_code" }, "profileGate", "doctor:gate.sendFailed")).toBe(
      "doctor:gate.invalidCode",
    );
    expect(upstreamErrorKey({ status: 429, code: "too_many_attempts" }, "login", "auth:login.failed")).toBe(
      "auth:login.tooMany",
    );
    expect(
      upstreamErrorKey({ status: 409, code: "invalid_transition" }, "proposalReject", "patient:proposals.rejectFailed"),
    ).toBe("patient:proposals.changedMeanwhile");
    expect(
      upstreamErrorKey({ status: 409, code: "invalid_transition" }, "proposalAccept", "patient:proposals.acceptFailed"),
    ).toBe("patient:proposals.changedMeanwhile");
    expect(
      upstreamErrorKey({ status: 409, code: "already_final" }, "doctorAppointment", "doctor:toast.updateFailed"),
    ).toBe("doctor:errors.changedMeanwhile");
    expect(upstreamErrorKey({ status: 409, code: "already_decided" }, "admin", "admin:errors.approveFailed")).toBe(
      "admin:errors.alreadyDecided",
    );
    expect(upstreamErrorKey({ status: 404, code: "not_found" }, "admin", "admin:errors.rejectFailed")).toBe(
      "admin:errors.notFound",
    );
    expect(upstreamErrorKey({ status: 400, code: "invalid_speciality" }, "admin", "admin:errors.approveFailed")).toBe(
      "admin:errors.invalidSpeciality",
    );
  });

  it("says the same thing everywhere for what does not depend on the screen", () => {
    for (const action of ["booking", "proposalAccept", "doctorAppointment"] as const) {
      expect(upstreamErrorKey({ status: 409, code: "clinic_closed" }, action, "patient:book.failed")).toBe(
        "common:availability.clinicClosed",
      );
      expect(upstreamErrorKey({ status: 409, code: "day_not_worked" }, action, "patient:book.failed")).toBe(
        "common:availability.dayNotWorked",
      );
    }
    // A patient's booking limits: the same words when booking and when accepting a proposal.
    for (const action of ["booking", "proposalAccept"] as const) {
      expect(upstreamErrorKey({ status: 409, code: "booking_same_time" }, action, "x:fallback")).toBe(
        "patient:bookingLimits.sameTime",
      );
      expect(upstreamErrorKey({ status: 409, code: "booking_limit_doctor" }, action, "x:fallback")).toBe(
        "patient:bookingLimits.perDoctor",
      );
      expect(upstreamErrorKey({ status: 409, code: "booking_limit_total" }, action, "x:fallback")).toBe(
        "patient:bookingLimits.total",
      );
    }
    const actions: UpstreamAction[] = ["booking", "login", "page", "profileGate", "doctorAppointment"];
    for (const action of actions) {
      expect(upstreamErrorKey({ status: 503, code: "network" }, action, "x:fallback")).toBe("common:errors.network");
      expect(upstreamErrorKey({ status: 429, code: "rate_limited" }, action, "x:fallback")).toBe(
        "common:errors.rateLimited",
      );
      expect(upstreamErrorKey({ status: 400, code: "invalid_page" }, action, "x:fallback")).toBe(
        "common:errors.invalidPage",
      );
      expect(upstreamErrorKey({ status: 400, code: "invalid_limit" }, action, "x:fallback")).toBe(
        "common:errors.invalidLimit",
      );
    }
  });

  it("reads the status when the answer carried no code", () => {
    expect(upstreamErrorKey({ status: 404 }, "patientAppointment", "patient:cancel.failed")).toBe(
      "patient:cancel.notFound",
    );
    expect(upstreamErrorKey({ status: 404, code: "whatever" }, "doctorAppointment", "doctor:toast.updateFailed")).toBe(
      "doctor:errors.notFound",
    );
    expect(upstreamErrorKey({ status: 502 }, "booking", "patient:book.failed")).toBe("common:errors.network");
    expect(upstreamErrorKey({ status: 429 }, "page", "auth:register.failed")).toBe("common:errors.rateLimited");
  });

  it("falls back to the screen's words for a code it does not know or that this screen does not explain", () => {
    expect(upstreamErrorKey({ status: 500, code: "internal" }, "booking", "patient:book.failed")).toBe(
      "patient:book.failed",
    );
    expect(upstreamErrorKey({ status: 400, code: "invalid_phone" }, "booking", "patient:book.failed")).toBe(
      "patient:book.failed",
    );
    expect(upstreamErrorKey({ status: 400, code: "toString" }, "page", "common:errors.somethingWrong")).toBe(
      "common:errors.somethingWrong",
    );
    expect(upstreamErrorKey({ status: 400, code: "__proto__" }, "page", "common:errors.somethingWrong")).toBe(
      "common:errors.somethingWrong",
    );
  });

  it("names the account's role when a sign-in is refused for the other one, and nothing the API did not say", () => {
    expect(
      upstreamErrorKey({ status: 403, code: "wrong_role", body: { role: "doctor" } }, "login", "auth:login.failed"),
    ).toBe("auth:login.wrongRole.doctor");
    expect(
      upstreamErrorKey({ status: 403, code: "wrong_role", body: { role: "admin" } }, "login", "auth:login.failed"),
    ).toBe("auth:login.failed");
    expect(upstreamErrorKey({ status: 403, code: "wrong_role", body: {} }, "login", "auth:login.failed")).toBe(
      "auth:login.failed",
    );
  });

  it("gives only keys that exist in English and in French", () => {
    const source = fs.readFileSync(path.join("app", "upstream-errors.ts"), "utf8");
    const keys = [...source.matchAll(/"([a-z]+:[A-Za-z.]+)"/g)].map((m) => m[1]!);
    keys.push("auth:login.wrongRole.patient", "auth:login.wrongRole.doctor");
    expect(keys.length).toBeGreaterThan(20);
    for (const key of keys) {
      for (const language of ["en", "fr"])
        expect(typeof translation(language, key), `${language} ${key}`).toBe("string");
    }
  });
});

describe("no API message reaches the screen", () => {
  // Routes and components read an upstream failure's code through upstreamErrorKey; the upstream
  // client's failure has no `message` (the type says so) and nothing reads the answer's body text.
  function sources(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory()
        ? sources(file)
        : /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.")
          ? [file]
          : [];
    });
  }

  it("no route or component reads `message` off an upstream answer or a caught error", () => {
    const offenders = sources("app").filter((file) =>
      /\b(answer|result|sent|error|failure\.body|body)\??\.message\b/.test(fs.readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
