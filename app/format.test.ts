import { afterEach, describe, expect, it, vi } from "vitest";
import { clockIn, countryName, countryOptions, formatDate, formatMoney, isoDateIn, specialityName } from "./format.ts";

// Intl separates groups and units with narrow or plain no-break spaces: compare as plain spaces.
const plain = (s: string) => s.replace(/\s/g, " ");

afterEach(() => vi.restoreAllMocks());

describe("formatMoney", () => {
  it("writes XAF the French way, in francs CFA without decimals", () => {
    expect(plain(formatMoney(3000, "fr"))).toBe("3 000 FCFA");
    expect(plain(formatMoney(12500, "fr"))).toBe("12 500 FCFA");
  });

  it("writes XAF the English way, without decimals", () => {
    expect(plain(formatMoney(3000, "en"))).toBe("FCFA 3,000");
    expect(plain(formatMoney(2500.4, "en"))).toBe("FCFA 2,500");
    expect(plain(formatMoney(0, "en"))).toBe("FCFA 0");
  });

  it("builds its formatter once per language, not per call", () => {
    formatMoney(1, "fr");
    const built = vi.spyOn(Intl, "NumberFormat");
    for (let i = 0; i < 5; i++) formatMoney(i * 1000, "fr");
    expect(built).not.toHaveBeenCalled();
  });
});

describe("formatMoney and formatDate remember what they wrote", () => {
  it("write an amount or a day once per language", () => {
    expect(plain(formatMoney(4500, "fr"))).toBe("4 500 FCFA");
    expect(formatDate("2027-02-03", "fr")).toBe("3 févr. 2027");
    // `format` is a getter (a bound function) on both prototypes.
    const numbers = vi.spyOn(Intl.NumberFormat.prototype as { format: unknown }, "format", "get");
    const dates = vi.spyOn(Intl.DateTimeFormat.prototype as { format: unknown }, "format", "get");
    expect(plain(formatMoney(4500, "fr"))).toBe("4 500 FCFA");
    expect(formatDate("2027-02-03T23:30:00.000Z", "fr")).toBe("3 févr. 2027");
    expect(numbers).not.toHaveBeenCalled();
    expect(dates).not.toHaveBeenCalled();
    // Another language or value is its own.
    expect(plain(formatMoney(4500, "en"))).toBe("FCFA 4,500");
    expect(formatDate("2027-02-03", "en")).toBe("Feb 3, 2027");
    expect(plain(formatMoney(4501, "fr"))).toBe("4 501 FCFA");
  });

  it("stay right past the number of values they keep", () => {
    for (let i = 0; i < 5000; i++) formatMoney(i, "en");
    expect(plain(formatMoney(3000, "fr"))).toBe("3 000 FCFA");
    expect(plain(formatMoney(4999, "en"))).toBe("FCFA 4,999");
    expect(formatDate("2026-12-01", "en")).toBe("Dec 1, 2026");
  });
});

describe("formatDate", () => {
  it("writes a calendar day in each language", () => {
    expect(formatDate("2026-12-01", "en")).toBe("Dec 1, 2026");
    expect(formatDate("2026-12-01", "fr")).toBe("1 déc. 2026");
  });

  it("takes the day of an ISO timestamp without moving it across midnight", () => {
    expect(formatDate("2026-03-09T23:30:00.000Z", "en")).toBe("Mar 9, 2026");
    expect(formatDate("2026-03-09T00:10:00+01:00", "fr")).toBe("9 mars 2026");
  });

  it("builds its formatter once per language", () => {
    formatDate("2026-01-01", "en");
    const built = vi.spyOn(Intl, "DateTimeFormat");
    formatDate("2026-01-02", "en");
    formatDate("2026-01-03", "en");
    expect(built).not.toHaveBeenCalled();
  });
});

describe("clockIn and isoDateIn", () => {
  it("read an instant on the clinic's wall clock and calendar", () => {
    const at = new Date("2026-12-01T23:30:00Z");
    expect(clockIn("Africa/Douala", at)).toBe("00:30");
    expect(isoDateIn("Africa/Douala", at)).toBe("2026-12-02");
    expect(clockIn("America/Los_Angeles", at)).toBe("15:30");
  });

  it("build their formatters once per zone", () => {
    const made = vi.spyOn(Intl, "DateTimeFormat");
    clockIn("Asia/Kolkata", new Date());
    clockIn("Asia/Kolkata", new Date());
    expect(made).toHaveBeenCalledTimes(1);
  });
});

describe("countryName", () => {
  it("names a country from its code in the reader's language", () => {
    expect(countryName({ code: "CM", name: "Cameroon" }, "fr")).toBe("Cameroun");
    expect(countryName({ code: "TD", name: "Chad" }, "fr")).toBe("Tchad");
    expect(countryName({ code: "CM", name: "Cameroon" }, "en")).toBe("Cameroon");
  });

  it("falls back to the stored name without a known code", () => {
    expect(countryName({ code: null, name: "Cameroon" }, "fr")).toBe("Cameroon");
    expect(countryName({ code: "XY", name: "Elsewhere" }, "fr")).toBe("Elsewhere");
  });
});

describe("specialityName", () => {
  const cardiology = { name: "Cardiology", nameFr: "Cardiologie" };

  it("uses the data's French column in French and the English one otherwise", () => {
    expect(specialityName(cardiology, "fr")).toBe("Cardiologie");
    expect(specialityName(cardiology, "en")).toBe("Cardiology");
    expect(specialityName({ name: "Cardiology" }, "fr")).toBe("Cardiology");
  });
});

describe("countryOptions", () => {
  const fromApi = [
    { id: 1, code: "CM", name: "Cameroon" },
    { id: 4, code: "CF", name: "Central African Republic" },
    { id: 3, code: "TD", name: "Chad" },
    { id: 6, code: "GQ", name: "Equatorial Guinea" },
    { id: 2, code: "GA", name: "Gabon" },
  ];

  it("names the countries in French, sorted the French way, the home country first", () => {
    expect(countryOptions(fromApi, "fr").map((c) => c.name)).toEqual([
      "Cameroun",
      "Gabon",
      "Guinée équatoriale",
      "République centrafricaine",
      "Tchad",
    ]);
    expect(countryOptions(fromApi, "fr").map((c) => c.id)).toEqual([1, 2, 6, 4, 3]);
  });

  it("keeps the English names and order in English", () => {
    expect(countryOptions(fromApi, "en").map((c) => c.name)).toEqual(fromApi.map((c) => c.name));
    expect(countryOptions([], "en")).toEqual([]);
  });

  it("names and sorts a list once per language, and a new list anew", () => {
    const list = fromApi.map((c) => ({ ...c }));
    const first = countryOptions(list, "fr");
    const named = vi.spyOn(Intl.DisplayNames.prototype, "of");
    const compared = vi.spyOn(Intl.Collator.prototype, "compare", "get");
    expect(countryOptions(list, "fr")).toBe(first);
    expect(named).not.toHaveBeenCalled();
    expect(compared).not.toHaveBeenCalled();
    // The other language is its own answer.
    expect(countryOptions(list, "en").map((c) => c.name)).toEqual(fromApi.map((c) => c.name));
    // A refreshed reference list (a new object, a country added) is sorted again, not the old answer.
    const refreshed = [...list, { id: 7, code: "CG", name: "Congo" }];
    expect(countryOptions(refreshed, "fr").map((c) => c.id)).toEqual([1, 7, 2, 6, 4, 3]);
    expect(countryOptions(list, "fr").map((c) => c.id)).toEqual([1, 2, 6, 4, 3]);
  });
});
