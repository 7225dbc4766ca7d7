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
    for (const date of [
      "2026-02-31",
      "2026-02-29",
      "2026-04-31",
      "2026-13-01",
      "2026-3-12",
      "12/03/2026",
      20260312,
      null,
    ]) {
      expect(
        codeOf(() => parseSlot(date, "09:00")),
        String(date),
      ).toBe("invalid_date");
    }
    expect(codeOf(() => parseSlot("2028-02-29", "09:00"))).toBe("accepted");
  });

  it("refuses times off the 5-minute grid (off the six slots for an open request), or not times at all", () => {
    now();
    // On the grid: whether the doctor's plan offers it is the availability rule's answer.
    expect(codeOf(() => parseSlot("2026-03-12", "12:35"))).toBe("accepted");
    expect(codeOf(() => parseSlot("2026-03-12", "12:37"))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "12:00", { sixSlots: true }))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "14:00", { sixSlots: true }))).toBe("accepted");
    expect(codeOf(() => parseSlot("2026-03-12", ""))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "2026-03-12T09:00:00"))).toBe("invalid_slot");
    expect(codeOf(() => parseSlot("2026-03-12", "2026-03-13T09:00:00+01:00"))).toBe("invalid_slot");
    for (const time of ["25:00", "24:00", "09:60", "99:99"]) {
      expect(
        codeOf(() => parseSlot("2026-03-12", time)),
        time,
      ).toBe("invalid_slot");
    }
    expect(codeOf(() => parseSlot("2026-03-12", "12:32"))).toBe("invalid_slot");
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
    expect(clinicParts(instant, "Africa/Douala")).toEqual({
      date: "2026-07-01",
      time: "14:00",
      iso: "2026-07-01T14:00:00+01:00",
    });
  });
});

describe("clinic time in a zone with daylight saving", () => {
  // Paris: UTC+1 in winter, UTC+2 from 29 March 2026 (02:00 -> 03:00) to 25 October 2026.
  // Los Angeles: UTC-8, then UTC-7 from 8 March 2026 at 02:00, ten hours after Paris's midnight UTC.
  const slotsOf = (date: string, timeZone: string) =>
    ["09:00", "16:00"].map((slot) => zonedInstant(date, slot, timeZone).toISOString());

  it("gives each slot of the days around the spring change its own offset", () => {
    expect(slotsOf("2026-03-28", "Europe/Paris")).toEqual(["2026-03-28T08:00:00.000Z", "2026-03-28T15:00:00.000Z"]);
    expect(slotsOf("2026-03-29", "Europe/Paris")).toEqual(["2026-03-29T07:00:00.000Z", "2026-03-29T14:00:00.000Z"]);
    expect(slotsOf("2026-03-07", "America/Los_Angeles")).toEqual([
      "2026-03-07T17:00:00.000Z",
      "2026-03-08T00:00:00.000Z",
    ]);
    // The change happens at 10:00 UTC, after 09:00 UTC: an offset read at the slot's UTC reading would be winter's.
    expect(slotsOf("2026-03-08", "America/Los_Angeles")).toEqual([
      "2026-03-08T16:00:00.000Z",
      "2026-03-08T23:00:00.000Z",
    ]);
  });

  it("and around the autumn change", () => {
    expect(slotsOf("2026-10-24", "Europe/Paris")).toEqual(["2026-10-24T07:00:00.000Z", "2026-10-24T14:00:00.000Z"]);
    expect(slotsOf("2026-10-25", "Europe/Paris")).toEqual(["2026-10-25T08:00:00.000Z", "2026-10-25T15:00:00.000Z"]);
    expect(slotsOf("2026-11-01", "America/Los_Angeles")).toEqual([
      "2026-11-01T17:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
    ]);
  });

  it("writes an instant back as the wall clock and offset of its own day", () => {
    expect(clinicParts(new Date("2026-03-29T07:00:00Z"), "Europe/Paris")).toEqual({
      date: "2026-03-29",
      time: "09:00",
      iso: "2026-03-29T09:00:00+02:00",
    });
    expect(clinicParts(new Date("2026-03-28T08:00:00Z"), "Europe/Paris")).toEqual({
      date: "2026-03-28",
      time: "09:00",
      iso: "2026-03-28T09:00:00+01:00",
    });
    expect(clinicParts(new Date("2026-03-08T16:00:00Z"), "America/Los_Angeles")).toEqual({
      date: "2026-03-08",
      time: "09:00",
      iso: "2026-03-08T09:00:00-07:00",
    });
    // Just before midnight UTC is already the next day in Paris.
    expect(clinicParts(new Date("2026-07-01T22:30:00Z"), "Europe/Paris").date).toBe("2026-07-02");
  });

  it("writes the same instant, asked again, in each zone's own wall clock", () => {
    const instant = new Date("2026-07-01T22:30:00Z");
    for (let i = 0; i < 2; i++) {
      expect(clinicParts(instant, "Europe/Paris")).toEqual({
        date: "2026-07-02",
        time: "00:30",
        iso: "2026-07-02T00:30:00+02:00",
      });
      expect(clinicParts(instant, "America/Los_Angeles")).toEqual({
        date: "2026-07-01",
        time: "15:30",
        iso: "2026-07-01T15:30:00-07:00",
      });
    }
  });

  it("round-trips every slot of a year in both zones", () => {
    for (const timeZone of ["Europe/Paris", "America/Los_Angeles", "Africa/Douala"]) {
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        for (const slot of ["09:00", "16:00"]) {
          const parts = clinicParts(zonedInstant(date, slot, timeZone), timeZone);
          expect([parts.date, parts.time], `${timeZone} ${date} ${slot}`).toEqual([date, slot]);
          expect(Date.parse(parts.iso)).toBe(zonedInstant(date, slot, timeZone).getTime());
        }
      }
    }
  });
});
