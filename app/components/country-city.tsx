// The country/city pair (docs/architecture.md, Progressive enhancement). The city select waits for a country; choosing a
// country clears the city. With JavaScript the cities load in place; without it, the 'Update
// cities' button posts the form (intent=cities) and the action answers with the new list
// (reloadCities in location.server.ts). Texts come from `ns` (patient:location, doctor:profile).
// A country or city chosen before the page's scripts ran (a slow phone) is taken over when they
// do: the selects follow the component's state, which would otherwise put back the rendered ones.
import { useRef, useState } from "react";
import { useEarlyInput } from "../early-input.ts";
import { useHydrated, useTranslation } from "../i18n.ts";
import { useFetcher } from "react-router";
import { SelectField } from "./forms.tsx";
import { countryOptions } from "../format.ts";
import type { Country, Place } from "../../contract/reference.ts";

export function CountryCityFields({
  countries,
  cities,
  reloaded,
  initialCountry,
  initialCity,
  idPrefix,
  ns,
  cityErrors,
}: {
  countries: Country[];
  /** The cities of `initialCountry`, loaded by the server. */
  cities: Place[];
  /** The action's answer: after 'Update cities' it brings the country and cities to show. */
  reloaded?: { country?: string | null; cities?: Place[] | null } | null;
  initialCountry: string;
  initialCity: string;
  idPrefix: string;
  ns: "patient:location" | "doctor:profile";
  /** Translation keys, e.g. asking for a city of a newly chosen country. */
  cityErrors?: string[] | null;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<Place[]>();
  const loaded =
    reloaded?.country != null
      ? { country: reloaded.country, cities: reloaded.cities ?? [] }
      : { country: initialCountry, cities };
  const [country, setCountry] = useState(loaded.country);
  const [city, setCity] = useState(initialCity);
  const countrySelect = useRef<HTMLSelectElement>(null);
  const citySelect = useRef<HTMLSelectElement>(null);
  function chooseCountry(value: string) {
    setCountry(value);
    setCity("");
    if (value && value !== loaded.country) void fetcher.load(`/cities/${value}`);
  }
  useEarlyInput(countrySelect, country, chooseCountry);
  // A city chosen early counts only if the country is still the one its list belongs to.
  useEarlyInput(citySelect, city, (chosen) => {
    if (countrySelect.current?.value === country) setCity(chosen);
  });
  const loading = fetcher.state !== "idle";
  const list = hydrated && country !== loaded.country ? (fetcher.data ?? []) : loaded.cities;
  const placeholder = !country
    ? t(`${ns}.selectCountryFirst`)
    : loading
      ? t(`${ns}.loadingCities`)
      : list.length === 0
        ? t(`${ns}.noCities`)
        : t(`${ns}.selectCity`);
  return (
    <>
      <input type="hidden" name="loadedCountryId" value={loaded.country} />
      <SelectField
        id={`${idPrefix}-country`}
        label={t(`${ns}.country`)}
        name="countryId"
        ref={countrySelect}
        value={country}
        onChange={(e) => chooseCountry(e.currentTarget.value)}
      >
        <option value="">{t(`${ns}.selectCountry`)}</option>
        {countryOptions(countries, i18n.language).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <div>
        <SelectField
          id={`${idPrefix}-city`}
          label={t(`${ns}.city`)}
          name="cityId"
          ref={citySelect}
          value={city}
          onChange={(e) => setCity(e.currentTarget.value)}
          errors={cityErrors}
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
            {t(`${ns}.updateCities`)}
          </button>
        ) : null}
      </div>
    </>
  );
}
