// The clinic time zone (APP_TIMEZONE, default Africa/Douala) and today's date there, for date minimums.
import { isoDateIn } from "../../format.ts";

export const clinicTimeZone = () => process.env.APP_TIMEZONE || "Africa/Douala";

export function clinicToday(now = new Date()) {
  return isoDateIn(clinicTimeZone(), now);
}
