import { afterEach, describe, expect, it, vi } from "vitest";
import { formatTimeZone } from "./time-zone.ts";

describe("formatTimeZone", () => {
  const winter = new Date("2026-01-15T12:00:00Z");
  const summer = new Date("2026-07-15T12:00:00Z");

  it("names the clinic zone in the reader's language with its UTC offset", () => {
    expect(formatTimeZone("Africa/Douala", "en", winter)).toBe("West Africa Time (UTC+1)");
    expect(formatTimeZone("Africa/Douala", "fr", winter)).toBe("heure d’Afrique de l’Ouest (UTC+1)");
  });

  it("follows daylight saving time and half-hour offsets", () => {
    expect(formatTimeZone("America/New_York", "en", winter)).toBe("Eastern Standard Time (UTC-5)");
    expect(formatTimeZone("America/New_York", "en", summer)).toBe("Eastern Daylight Time (UTC-4)");
    expect(formatTimeZone("Asia/Kolkata", "en", winter)).toBe("India Standard Time (UTC+5:30)");
  });

  it("gives the offset alone for a zone the language has no name for", () => {
    expect(formatTimeZone("Etc/GMT-3", "fr", winter)).toBe("UTC+3");
  });

  it("words a zone once per minute, and anew across a transition", () => {
    const beforeChange = new Date("2026-03-08T06:59:00Z"); // 01:59 in New York, a minute before 03:00 EDT
    const afterChange = new Date("2026-03-08T07:00:00Z");
    expect(formatTimeZone("America/New_York", "en", beforeChange)).toBe("Eastern Standard Time (UTC-5)");
    const parts = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    expect(formatTimeZone("America/New_York", "en", new Date(beforeChange.getTime() + 59_000))).toBe(
      "Eastern Standard Time (UTC-5)",
    );
    expect(parts).not.toHaveBeenCalled();
    expect(formatTimeZone("America/New_York", "en", afterChange)).toBe("Eastern Daylight Time (UTC-4)");
    expect(formatTimeZone("America/New_York", "fr", beforeChange)).toContain("(UTC-5)");
  });
});

afterEach(() => vi.restoreAllMocks());
