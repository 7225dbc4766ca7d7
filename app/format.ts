// The one place where the web app turns numbers, dates, countries and specialities into text in
// the reader's language (docs/formatting.md); a zone's name is contract/time-zone.ts, shared with
// the API's mails. Intl formatters are costly to build (tens of microseconds each, a measured hot
// spot of the find-a-doctor page in bench/ssr.ts) and immutable: each one below is built once per
// language (and zone), then reused by every call.
import { remembered } from "../contract/remembered.ts";

/** One lazily built value per key (a language, or a language and a zone). */
function once<T>(make: (key: string) => T): (key: string) => T {
  const built = new Map<string, T>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) built.set(key, (value = make(key)));
    return value;
  };
}

// Fees are whole francs CFA (XAF has no minor unit in use): never decimals, grouped the way the
// language groups them ('3 000 FCFA' in French, 'FCFA 3,000' in English).
const money = once(
  (language) => new Intl.NumberFormat(language, { style: "currency", currency: "XAF", maximumFractionDigits: 0 }),
);

// Formatted fees and days are remembered (contract/remembered.ts): Intl's format calls cost
// microseconds each, on every card of every page.
const moneyText = remembered<string>(2000);

/** An amount in XAF, as the language writes money. */
export const formatMoney = (amount: number, language: string) =>
  moneyText(`${language}|${amount}`, () => money(language).format(amount));

// A calendar date ('YYYY-MM-DD', or the date part of an ISO timestamp) is a day, not an instant:
// read at noon UTC and written in UTC, so no zone can move it to the day before or after.
const day = once((language) => new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }));

const dayText = remembered<string>(2000);

/** '1 Dec 2026' / '1 déc. 2026'. */
export function formatDate(date: string, language: string) {
  const calendarDay = date.slice(0, 10);
  return dayText(`${language}|${calendarDay}`, () => day(language).format(new Date(`${calendarDay}T12:00:00Z`)));
}

// 'YYYY-MM-DD' as a zone's wall calendar reads it (en-CA writes dates in that order).
const isoDay = once(
  (timeZone) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
);

/** The calendar day ('YYYY-MM-DD') an instant falls on in `timeZone`. */
export const isoDateIn = (timeZone: string, at: Date) => isoDay(timeZone).format(at);

const clock = once(
  (timeZone) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }),
);

/** The wall-clock time ('09:00', 24-hour, as the slots are written) of an instant in `timeZone`. */
export const clockIn = (timeZone: string, at: Date) => clock(timeZone).format(at);

// A region's name is looked up once per language and code (about 250 codes): Intl.DisplayNames
// answers each call anew, and a page names a country on every card and in its country list.
const regionNames = once((language) => {
  const names = new Intl.DisplayNames([language], { type: "region", fallback: "none" });
  const known = new Map<string, string | undefined>();
  return (code: string) => {
    if (known.has(code)) return known.get(code);
    const name = names.of(code);
    if (known.size < 1000) known.set(code, name);
    return name;
  };
});

/** A country in the reader's language from its ISO code; the stored (English) name when the code is unknown. */
export function countryName(country: { code?: string | null; name: string }, language: string) {
  return (country.code && regionNames(language)(country.code)) || country.name;
}

/** A speciality in the reader's language: the data's French column in French. */
export const specialityName = (s: { name: string; nameFr?: string | null }, language: string) =>
  language === "fr" && s.nameFr ? s.nameFr : s.name;

const collators = once((language) => new Intl.Collator(language));

// The list of countries is the web tier's cached reference list (upstream.server.ts), the same
// object on every page until it is refreshed: its options in a language are named and sorted once.
const sortedCountries = new WeakMap<object, Map<string, unknown>>();

/**
 * Countries for a select, named in the reader's language and sorted in its order. The API lists
 * the home country first (api/location/router.ts): it stays first. The answer is shared: not to be changed.
 */
export function countryOptions<C extends { code?: string | null; name: string }>(
  countries: C[],
  language: string,
): readonly C[] {
  let byLanguage = sortedCountries.get(countries);
  if (!byLanguage) sortedCountries.set(countries, (byLanguage = new Map()));
  let options = byLanguage.get(language) as C[] | undefined;
  if (!options) byLanguage.set(language, (options = sortCountries(countries, language)));
  return options;
}

function sortCountries<C extends { code?: string | null; name: string }>(countries: C[], language: string): C[] {
  const named = countries.map((c) => ({ ...c, name: countryName(c, language) }));
  const [home, ...others] = named;
  return home ? [home, ...others.sort((a, b) => collators(language).compare(a.name, b.name))] : [];
}

/** 'Hôpital Laquintinie, Douala, Cameroun': the parts that are known, the country in the reader's language. */
export function formatPlace(
  p: {
    place?: string | null;
    city?: string | null;
    country?: string | null;
    Country?: { code?: string | null; name: string } | null;
  },
  language: string,
) {
  const country = p.Country ? countryName(p.Country, language) : p.country;
  return [p.place, p.city, country].filter(Boolean).join(", ");
}

/** HH:mm of an appointment, read from its offset timestamp (the API writes it in the clinic's zone). */
export const slotOf = (a: { time: string }) => a.time.slice(11, 16);

/** '08:40–09:00': when an appointment starts and ends (its start alone when the end is not known). */
export const timeRangeOf = (a: { time: string; endTime?: string | null }) =>
  a.endTime ? `${slotOf(a)}–${a.endTime.slice(11, 16)}` : slotOf(a);

/**
 * The time a patient's appointment shows: from start to end once a doctor holds it; an open request
 * waiting for one shows its preferred start alone (its length is the doctor's, not known yet).
 */
export const shownTime = (a: { time: string; endTime?: string | null; doctorId: string | null }) =>
  a.doctorId ? timeRangeOf(a) : slotOf(a);
