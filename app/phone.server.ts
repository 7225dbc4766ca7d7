// Phone numbers are stored in E.164 (api/phone.ts); pages show them in international format
// (+237 6 70 00 00 01), formatted here so the phone library stays out of the browser's bundle.
import { parsePhoneNumberFromString } from "libphonenumber-js";

/** The international format of a stored number; anything unparsable (older records) as it is. */
export function formatPhone<T extends string | null | undefined>(value: T): T | string {
  if (!value) return value;
  return parsePhoneNumberFromString(value, "CM")?.formatInternational() ?? value;
}
