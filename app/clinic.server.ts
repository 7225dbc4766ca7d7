// The clinic time zone (APP_TIMEZONE, default Africa/Douala) and today's date there, for date minimums.
import { config } from "../config.ts";
import { isoDateIn } from "./format.ts";

export const clinicTimeZone = () => config().APP_TIMEZONE;

// Today changes at the zone's midnight, a whole minute: it is read once per minute (every page
// asks for it, and a DateTimeFormat call in a zone is not free).
let known = { zone: "", minute: Number.NaN, date: "" };

export function clinicToday(now = new Date()) {
  const zone = clinicTimeZone();
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== known.minute || zone !== known.zone) known = { zone, minute, date: isoDateIn(zone, now) };
  return known.date;
}
