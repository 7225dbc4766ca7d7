// The clinic time zone (APP_TIMEZONE, default Africa/Douala) and today's date there, for date minimums.
import { config } from "../config.ts";
import { isoDateIn } from "./format.ts";
import { formatTimeZone } from "../contract/time-zone.ts";

export const clinicTimeZone = () => config().APP_TIMEZONE;

/**
 * The clinic zone as the language names it ('West Africa Time (UTC+1)'), named by the server for the
 * pages: the browser then needs neither the naming code nor its own Intl data to agree with the
 * server's (docs/decisions/0003-first-load-javascript-budget.md).
 */
export const clinicZoneName = (language: string) => formatTimeZone(clinicTimeZone(), language);

export function clinicToday(now = new Date()) {
  return isoDateIn(clinicTimeZone(), now);
}
