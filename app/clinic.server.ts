// The clinic time zone (APP_TIMEZONE, default Africa/Douala) and today's date there, for date minimums.
import { config } from "../config.ts";
import { isoDateIn } from "./format.ts";

export const clinicTimeZone = () => config().APP_TIMEZONE;

export function clinicToday(now = new Date()) {
  return isoDateIn(clinicTimeZone(), now);
}
