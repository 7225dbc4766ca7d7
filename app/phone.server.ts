// Phone numbers on the server, with libphonenumber-js (ADR 0008), whose numbering plans stay out of
// the browser's bundle: a form's schema checks a number's shape in the browser (phone-shape.ts) and,
// given `isPhoneNumber` by its action, whether it is a number too. Stored numbers are E.164 (api/phone.ts); pages show them in international format
// (+237 6 70 00 00 01).
import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";
import { DEFAULT_PHONE_REGION } from "../contract/phone.ts";
import { hasPhoneShape, type PhoneCheck } from "./phone-shape.ts";

/** True when `value` is written like a number and is one in Cameroon's numbering, or another country's with +country. */
export const isPhoneNumber: PhoneCheck = (value) =>
  hasPhoneShape(value) && isValidPhoneNumber(value, DEFAULT_PHONE_REGION);

/** The international format of a stored number; anything unparsable (older records) as it is. */
export function formatPhone<T extends string | null | undefined>(value: T): T | string {
  if (!value) return value;
  return parsePhoneNumberFromString(value, DEFAULT_PHONE_REGION)?.formatInternational() ?? value;
}
