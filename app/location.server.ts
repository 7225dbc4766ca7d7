// The country/city pair's server side (components/country-city.tsx): a country's cities, and the
// 'Update cities' step that reloads them without JavaScript.
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { Place } from "../contract/reference.ts";
import type { Upstream } from "./upstream.server.ts";

/** The cities of a country; none when there is no country or the upstream refuses it. */
export async function citiesOf(api: Upstream, countryId: number | null | undefined): Promise<Place[]> {
  if (!countryId) return [];
  const answer = await api.call<Place[]>("GET", `/location/city/${countryId}`);
  return answer.ok ? answer.data : [];
}

/**
 * Save pressed with a country other than the one whose cities the form listed (without JavaScript,
 * 'Update cities' not pressed): the posted city belongs to the old list. It is kept only if it is a
 * city of the new country; otherwise the answer is the form with the new country's cities, asking
 * for one (`ns`: the texts' namespace). A country without cities is saved without a city.
 */
export async function cityOfNewCountry(
  api: Upstream,
  formData: FormData,
  schema: z.ZodType,
  ns: "patient:location" | "doctor:profile",
) {
  const country = String(formData.get("countryId") ?? "");
  if (!country || country === formData.get("loadedCountryId")) return null;
  const cities = await citiesOf(api, Number(country) || null);
  if (cities.some((c) => String(c.id) === formData.get("cityId"))) return null;
  formData.set("cityId", "");
  if (cities.length === 0) return null;
  const kept = parseWithZod(formData, { schema }).reply({ resetForm: false });
  return {
    result: { ...kept, error: { "": [`${ns}.countryChanged`], cityId: [`${ns}.chooseCityOfCountry`] } },
    cities,
    country,
  };
}

/**
 * The answer to intent=cities: the form as typed (its errors hidden, nothing was submitted yet),
 * the chosen country's cities, and that country. A city of the country loaded before is dropped.
 */
export async function reloadCities(api: Upstream, formData: FormData, schema: z.ZodType) {
  if (formData.get("countryId") !== formData.get("loadedCountryId")) formData.set("cityId", "");
  const country = String(formData.get("countryId") ?? "");
  const kept = parseWithZod(formData, { schema });
  return {
    result: { ...kept.reply({ resetForm: false }), error: {} },
    cities: await citiesOf(api, Number(country) || null),
    country,
  };
}
