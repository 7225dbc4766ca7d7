// Today's date in the clinic time zone (APP_TIMEZONE, default Africa/Douala), for date minimums.
import { config } from "../../../config.ts";
import { dateFormat } from "../../intl.ts";

export function clinicToday(now = new Date()) {
  const timeZone = config().APP_TIMEZONE;
  return dateFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
