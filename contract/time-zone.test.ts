import { describe, expect, it } from "vitest";
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
});
