// What the patient's and the doctor's own profile updates share (docs/product.md, Data): the
// country/city pair. Their fields are the contract's (contract/patient.ts, contract/doctor-profile.ts).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { cities, countries, users } from "./db/schema.ts";
import { ApiError, badRequest, notFound } from "./http.ts";

/**
 * Inside the update's transaction: locks the user's row and settles the country and city. Fields
 * left out stay as they are; changing the country drops a city outside it.
 */
export async function placeOfUpdate(
  tx: Db,
  userId: string,
  changes: { countryId?: number | null; cityId?: number | null },
) {
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
      if (changes.cityId !== undefined)
        throw new ApiError(400, "The city does not belong to the selected country", "city_country_mismatch");
      cityId = null;
    }
  }
  return { countryId, cityId };
}
