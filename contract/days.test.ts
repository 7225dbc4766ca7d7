// The day arithmetic the API and the web app share (contract/days.ts): across months, years, leap
// days and the clocks' changes of zones that have them (it counts in UTC, where none happen).
import { describe, expect, it } from "vitest";
import { addDays, daysFrom } from "./days.ts";

describe("calendar days", () => {
  it("the next and previous day, across a month, a year and a leap day", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2027-02-28", 1)).toBe("2027-03-01");
    expect(addDays("2027-03-01", -1)).toBe("2027-02-28");
    expect(addDays("2026-03-29", 1)).toBe("2026-03-30"); // Europe's clocks change that night
  });

  it("counts the days between two dates, as addDays moves", () => {
    expect(daysFrom("2026-12-04", "2026-12-04")).toBe(0);
    expect(daysFrom("2028-01-01", "2029-01-01")).toBe(366);
    expect(daysFrom("2027-01-01", "2026-12-31")).toBe(-1);
    for (const n of [0, 1, 59, 365, 366]) expect(daysFrom("2027-02-27", addDays("2027-02-27", n))).toBe(n);
  });
});
