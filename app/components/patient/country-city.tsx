// The country/city pair (DESIGN.md section 6). The city select waits for a country; choosing a
// country clears the city. With JavaScript the cities load in place; without it, the 'Update
// cities' button posts the form (intent=cities) and the action answers with the new list.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import { SelectField } from "../forms.tsx";
import type { Place } from "./types.ts";

export function CountryCityFields({
  countries,
  cities,
  initialCountry,
  initialCity,
  idPrefix,
}: {
  countries: Place[];
  /** The cities of `initialCountry`, loaded by the server. */
  cities: Place[];
  initialCountry: string;
  initialCity: string;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<Place[]>();
  const [country, setCountry] = useState(initialCountry);
  const [city, setCity] = useState(initialCity);
  const loading = fetcher.state !== "idle";
  const list = hydrated && country !== initialCountry ? (fetcher.data ?? []) : cities;
  const placeholder = !country
    ? t("patient:location.selectCountryFirst")
    : loading
      ? t("patient:location.loadingCities")
      : list.length === 0
        ? t("patient:location.noCities")
        : t("patient:location.selectCity");
  return (
    <>
      <input type="hidden" name="loadedCountryId" value={initialCountry} />
      <SelectField
        id={`${idPrefix}-country`}
        label={t("patient:location.country")}
        name="countryId"
        value={country}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setCountry(value);
          setCity("");
          if (value && value !== initialCountry) fetcher.load(`/patient/cities/${value}`);
        }}
      >
        <option value="">{t("patient:location.selectCountry")}</option>
        {countries.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <div>
        <SelectField
          id={`${idPrefix}-city`}
          label={t("patient:location.city")}
          name="cityId"
          value={city}
          onChange={(e) => setCity(e.currentTarget.value)}
          disabled={!country || loading || (hydrated && list.length === 0)}
        >
          <option value="">{placeholder}</option>
          {loading
            ? null
            : list.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
        </SelectField>
        {!hydrated ? (
          <button type="submit" name="intent" value="cities" className="btn-secondary mt-2" formNoValidate>
            {t("patient:location.updateCities")}
          </button>
        ) : null}
      </div>
    </>
  );
}
