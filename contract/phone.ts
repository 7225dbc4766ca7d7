// Phone numbers as people write them (+237 670 000 001, 670000001, 6.70.00.00.01): parsed by
// libphonenumber-js in the region of the form's country, Cameroon when none is chosen, and stored
// in E.164 (+237670000001) so every screen can format them alike (docs/decisions/0008).
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

export const DEFAULT_PHONE_REGION: CountryCode = "CM";

/** The E.164 form of a valid number, or null. */
export function normalizePhone(input: string, region: CountryCode = DEFAULT_PHONE_REGION): string | null {
  const parsed = parsePhoneNumberFromString(input, region);
  return parsed?.isValid() ? parsed.number : null;
}
