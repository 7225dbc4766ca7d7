// A profile's phone number, read in the region of the profile's country (contract/phone.ts says
// how numbers are read and stored).
import type { CountryCode } from "libphonenumber-js";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { countries, users } from "./db/schema.ts";
import { DEFAULT_PHONE_REGION, normalizePhone } from "../contract/phone.ts";

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
export async function profilePhone(
  db: Db,
  value: string | null | undefined,
  countryId: number | null,
  invalid: () => Error,
) {
  if (value == null) return value;
  const normalized = normalizePhone(value, await phoneRegionOf(db, countryId));
  if (!normalized) throw invalid();
  return normalized;
}

/**
 * The columns a profile update sets with a new `phone` (docs/sms.md): another number than the
 * stored one is not verified, and text messages stop until it is. Left out (undefined): nothing.
 */
export function phoneChange(phone: string | null | undefined) {
  if (phone === undefined) return {};
  const same = sql<boolean>`${users.phone} is not distinct from ${phone}`;
  return {
    phoneVerified: sql<boolean>`(${same} and ${users.phoneVerified})`,
    sms: sql<boolean>`(${same} and ${users.sms})`,
  };
}
