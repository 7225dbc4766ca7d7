// Phone numbers as people write them (+237 670 000 001, 670000001, 6.70.00.00.01): parsed by
// libphonenumber-js in the region of the form's country, Cameroon when none is chosen, and stored
// in E.164 (+237670000001) so every screen can format them alike (docs/decisions/0008).
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { eq } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { countries } from "./db/schema.ts";

const DEFAULT_PHONE_REGION: CountryCode = "CM";

/** The E.164 form of a valid number, or null. */
export function normalizePhone(input: string, region: CountryCode = DEFAULT_PHONE_REGION): string | null {
  const parsed = parsePhoneNumberFromString(input, region);
  return parsed?.isValid() ? parsed.number : null;
}

/** The region a number without its +country prefix is read in: the chosen country's, else Cameroon. */
async function phoneRegionOf(db: Db, countryId: number | null | undefined): Promise<CountryCode> {
  if (!countryId) return DEFAULT_PHONE_REGION;
  const [country] = await db.select({ code: countries.code }).from(countries).where(eq(countries.id, countryId));
  return (country?.code.toUpperCase() as CountryCode | undefined) ?? DEFAULT_PHONE_REGION;
}

/**
 * A profile update's number: left out (undefined) or cleared (null) as is; text must be a valid
 * number in the region of the profile's country (after the update), else `invalid` is thrown.
 */
export async function profilePhone(db: Db, value: string | null | undefined, countryId: number | null, invalid: () => Error) {
  if (value == null) return value;
  const normalized = normalizePhone(value, await phoneRegionOf(db, countryId));
  if (!normalized) throw invalid();
  return normalized;
}
