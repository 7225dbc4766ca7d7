// What the patient's and the doctor's own profile updates share (docs/product.md, Data): clearable
// fields, validation failures that name the field, and the country/city pair.
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "./db/index.ts";
import { cities, countries, users } from "./db/schema.ts";
import { ApiError, badRequest, notFound } from "./http.ts";

export const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

// The patient's profile still reads the clearable fields from here; they are the contract's.
export { clearableId, clearableText } from "../contract/fields.ts";

/** Validation failures name the field in their code (invalid_username, invalid_phone, ...). */
export function parseProfileUpdate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? "profile").replace(/Id$/, "");
  throw badRequest(issue?.message ?? "Failed to update profile", `invalid_${field}`);
}

/**
 * Inside the update's transaction: locks the user's row and settles the country and city. Fields
 * left out stay as they are; changing the country drops a city outside it.
 */
export async function placeOfUpdate(tx: Db, userId: string, changes: { countryId?: number | null; cityId?: number | null }) {
  const [current] = await tx
    .select({ countryId: users.countryId, cityId: users.cityId })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for("update");
  if (!current) throw notFound("Profile not found");
  const countryId = changes.countryId !== undefined ? changes.countryId : current.countryId;
  let cityId = changes.cityId !== undefined ? changes.cityId : current.cityId;
  if (countryId !== null) {
    const [country] = await tx.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId));
    if (!country) throw badRequest("Invalid country", "invalid_country");
  }
  if (cityId !== null) {
    const [city] = await tx.select({ countryId: cities.countryId }).from(cities).where(eq(cities.id, cityId));
    if (!city) throw badRequest("Invalid city", "invalid_city");
    if (city.countryId !== countryId) {
      // A city kept from before silently goes with the old country; a city sent now must fit.
      if (changes.cityId !== undefined) throw new ApiError(400, "The city does not belong to the selected country", "city_country_mismatch");
      cityId = null;
    }
  }
  return { countryId, cityId };
}
