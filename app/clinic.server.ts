// The clinic time zone (APP_TIMEZONE, default Africa/Douala) and today's date there, for date minimums.
import { config } from "../config.ts";
import { clockIn, isoDateIn } from "./format.ts";
import { formatTimeZone } from "../contract/time-zone.ts";

const clinicTimeZone = () => config().APP_TIMEZONE;

const zoneNames = new Map<string, { zone: string; minute: number; name: string }>();

/**
 * The clinic zone as the language names it ('West Africa Time (UTC+1)'), named by the server for the
 * pages: the browser then needs neither the naming code nor its own Intl data to agree with the
 * server's (docs/decisions/0003-first-load-javascript-budget.md).
 */
export function clinicZoneName(language: string, now = new Date()) {
  // Every page asks for it; the name and offset change at most at a DST transition: named once per
  // minute and language.
  const zone = clinicTimeZone();
  const minute = Math.floor(now.getTime() / 60_000);
  let named = zoneNames.get(language);
  if (!named || named.minute !== minute || named.zone !== zone)
    zoneNames.set(language, (named = { zone, minute, name: formatTimeZone(zone, language, now) }));
  return named.name;
}

// Today changes at the zone's midnight, a whole minute: it is read once per minute (every page
// asks for it, and a DateTimeFormat call in a zone is not free).
let known = { zone: "", minute: Number.NaN, date: "" };

export function clinicToday(now = new Date()) {
  const zone = clinicTimeZone();
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== known.minute || zone !== known.zone) known = { zone, minute, date: isoDateIn(zone, now) };
  return known.date;
}

/** The clinic's wall-clock time ('08:47') of an instant: when a patient arrived, as the desk reads it. */
export const clinicClock = (at: string | Date) => clockIn(clinicTimeZone(), new Date(at));
