// Today's date in the clinic time zone (APP_TIMEZONE, default Africa/Douala), for date minimums.
import { dateFormat } from "../../intl.ts";

export function clinicToday(now = new Date()) {
  const timeZone = process.env.APP_TIMEZONE || "Africa/Douala";
  return dateFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
