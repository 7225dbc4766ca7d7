// How a time zone is named to a reader, the same on a page (app/components/clinic-time-zone.tsx)
// and in a mail (api/notifications.ts): both sides import it from here (docs/formatting.md).
// Intl formatters are costly to build: one per language and zone, kept.
import { remembered } from "./remembered.ts";

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(locale: string, timeZone: string, timeZoneName: "long" | "longOffset") {
  const key = `${locale}|${timeZone}|${timeZoneName}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName })));
  return format;
}

const partOf = (format: Intl.DateTimeFormat, at: Date) =>
  format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";

/** 'UTC+1', 'UTC-3:30', 'UTC' for the zone's offset at `at`. */
function utcOffset(timeZone: string, at: Date) {
  const match = /^GMT([+-])(\d\d):(\d\d)$/.exec(partOf(formatOf("en", timeZone, "longOffset"), at));
  if (!match) return "UTC";
  const [, sign, hours, minutes] = match;
  return `UTC${sign}${Number(hours)}${minutes === "00" ? "" : `:${minutes}`}`;
}

// A zone's wording changes only at its transitions, which the tz database puts on whole minutes:
// it is made once per zone, language and minute (two formatToParts with ICU's zone names, tens of
// microseconds, on every page that names the clinic's zone), and forgotten in bulk past a few hundred.
const MINUTE = 60_000;
const worded = remembered<string>(500);

/**
 * The zone as the language names it, with its offset at `at`: 'West Africa Time (UTC+1)',
 * 'heure d’Afrique de l’Ouest (UTC+1)'. Zones without a name in the language give the offset alone.
 */
export function formatTimeZone(timeZone: string, language: string, at = new Date()) {
  return worded(`${timeZone}|${language}|${Math.floor(at.getTime() / MINUTE)}`, () =>
    wordTimeZone(timeZone, language, at),
  );
}

function wordTimeZone(timeZone: string, language: string, at: Date) {
  const name = partOf(formatOf(language, timeZone, "long"), at);
  const offset = utcOffset(timeZone, at);
  return !name || /^(GMT|UTC)/.test(name) ? offset : `${name} (${offset})`;
}
