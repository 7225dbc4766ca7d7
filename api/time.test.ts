import { afterEach, describe, expect, it, vi } from "vitest";
import { clinicParts, parseSlot, zonedInstant } from "./time.ts";

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return "accepted";
};

describe("parseSlot", () => {
  afterEach(() => vi.useRealTimers());
  // Douala is UTC+1 all year.
  const now = () => vi.useFakeTimers({ now: new Date("2026-03-10T08:00:00Z"), toFake: ["Date"] });

  it("accepts the six slots, as HH:mm or as a timestamp of the same day", () => {
    now();
    expect(parseSlot("2026-03-12", "09:00").toISOString()).toBe("2026-03-12T08:00:00.000Z");
    expect(parseSlot("2026-03-12", "2026-03-12T16:00:00+01:00").toISOString()).toBe("2026-03-12T15:00:00.000Z");
    expect(parseSlot("2026-03-12", "2026-03-12T13:00:00Z").toISOString()).toBe("2026-03-12T13:00:00.000Z");
  });

  it("refuses dates that do not exist instead of rolling them over", () => {
    now();
    for (const date of ["2026-02-31", "2026-02-29", "2026-04-31", "2026-13-01", "2026-3-12", "12/03/2026", 20260312, null]) {
      expect(codeOf(() => parseSlot(date, "09:00")), String(date)).toBe("invalid_date");
    }
    expect(codeOf(() => parseSlot("2028-02-29", "09:00"))).toBe("accepted");
  });

  it("refuses times that are not slots, or not times at all", () => {
    now();
    expect(codeOf(() => parseSlot("2026-03-12", "12:00"))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", ""))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "2026-03-12T09:00:00"))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "2026-03-13T09:00:00+01:00"))).toBe("invalid_slot");
    for (const time of ["25:00", "24:00", "09:60", "99:99"]) {
      expect(codeOf(() => parseSlot("2026-03-12", time)), time).toBe("invalid_slot");
    }
    expect(codeOf(() => parseSlot("2026-03-12", "12:30"))).toBe("invalid_slot");
  });

  it("refuses the past: a day before today, or a slot of today that has started", () => {
    now(); // 09:00 in Douala
    expect(codeOf(() => parseSlot("2026-03-09", "16:00"))).toBe("past_date");
    expect(codeOf(() => parseSlot("2026-03-10", "09:00"))).toBe("past_date");
    expect(codeOf(() => parseSlot("2026-03-10", "10:00"))).toBe("accepted");
  });
});

describe("clinic time", () => {
  it("turns wall-clock times into instants and back", () => {
    const instant = zonedInstant("2026-07-01", "14:00", "Africa/Douala");
    expect(instant.toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(clinicParts(instant, "Africa/Douala")).toEqual({ date: "2026-07-01", time: "14:00", iso: "2026-07-01T14:00:00+01:00" });
  });
});
