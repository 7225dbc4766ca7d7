// The wire of the reference data every form lists (docs/product.md, The API): GET
// /location/country, GET /location/city/{countryId} and GET /speciality.
import { z } from "zod";
import { coded, requiredId } from "./fields.ts";

export const place = z.object({ id: z.number().int(), name: z.string() });
/** A country carries its ISO code: the screens name it in the reader's language. */
export const country = place.extend({ code: z.string() });

export type Place = z.infer<typeof place>;
export type Country = z.infer<typeof country>;

/** GET /location/country: Cameroon first, then by name. */
export const countryList = z.array(country);

/** GET /location/city/{countryId} */
export const cityListParams = z.object({
  countryId: coded(requiredId("country", "Invalid country"), "invalid_country"),
});

/** GET /location/city/{countryId}: by name. */
export const cityList = z.array(place);

/** GET /speciality: General practice first, then by name. */
export const specialityList = z.array(
  z.object({ id: z.number().int(), name: z.string(), nameFr: z.string(), icon: z.string(), isGeneral: z.boolean() }),
);
export type Speciality = z.infer<typeof specialityList>[number];
