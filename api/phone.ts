// A profile's phone number, read in the region of the profile's country (contract/phone.ts says
// how numbers are read and stored).
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { countries, users } from "./db/schema.ts";
import { DEFAULT_PHONE_REGION, normalizePhone } from "../contract/phone.ts";
import { badRequest } from "./http.ts";

/** Serialises the changes that make a number someone's identity (a desk record, a verified phone). */
const PHONE_LOCK = 0x64736b70;

/** Within `tx`: waits for any other transaction making `phone` (E.164) someone's, until it ends. */
export async function lockPhone(tx: Db, phone: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_LOCK}, hashtext(${phone}))`);
}

/** SMS_COUNTRIES (docs/sms.md): where the clinic sends text messages; Cameroon unless said. */
const DEFAULT_SMS_COUNTRIES: readonly string[] = ["CM"];

/**
 * Refuses (400 phone_country_unsupported) a number (E.164) outside `countries`, before anything is
 * sent to it: a text abroad costs many times a local one, and nobody abroad needs our codes.
 */
export function requireSmsCountry(phone: string, countries: readonly string[] = DEFAULT_SMS_COUNTRIES) {
  const country = parsePhoneNumberFromString(phone)?.country;
  if (!country || !countries.includes(country))
    throw badRequest("Text messages cannot be sent to this country", "phone_country_unsupported");
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
