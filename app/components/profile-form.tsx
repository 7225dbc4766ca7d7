// The edit form's frame and the gender choice both profile pages share (docs/product.md, Screens and
// routes). Apart from profile.tsx, so that the profile pages, which load their edit form after
// hydration, do not load them first, nor the country/city pair
// (docs/decisions/0003-first-load-javascript-budget.md).
import type { ComponentProps, ReactNode, SelectHTMLAttributes } from "react";
import { useTranslation } from "../i18n.ts";
import { Form, Link } from "react-router";
import { CountryCityFields } from "./country-city.tsx";
import { FormAlert, SelectField, SubmitButton } from "./forms.tsx";
import { type FormMetadata, getFormProps } from "@conform-to/react";
import { knownGender, type Role } from "./profile.tsx";
import type { Country, Place } from "../../contract/reference.ts";

/** The edit form's values both profiles have: the name, the gender and the place (unset ones empty). */
export const sharedDefaults = (p: {
  username: string;
  gender: string | null;
  countryId: number | null;
  cityId: number | null;
}) => ({
  username: p.username,
  gender: knownGender(p.gender) ?? "",
  countryId: p.countryId ? String(p.countryId) : "",
  cityId: p.cityId ? String(p.cityId) : "",
});

export function GenderField({ role, ...select }: { role: Role } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { t } = useTranslation();
  return (
    <SelectField label={t(`${role}:profile.gender`)} {...select}>
      <option value="">{t(`${role}:profile.notProvided`)}</option>
      <option value="male">{t(`${role}:profile.male`)}</option>
      <option value="female">{t(`${role}:profile.female`)}</option>
    </SelectField>
  );
}

/**
 * The edit form around its fields (in two columns): the form's error, the idempotency key, the
 * country/city pair last, and Cancel and Save, on mobile in a sticky bottom bar (docs/product.md, Screens and routes).
 */
export function ProfileForm<Schema extends Record<string, unknown> & { countryId?: unknown; cityId?: unknown }>({
  role,
  form,
  data,
  reloaded,
  children,
}: {
  role: Role;
  form: FormMetadata<Schema, string[]>;
  /** From the loader: the key, the countries and the cities of the profile's country. */
  data: { idempotencyKey: string; countries: Country[]; cities: Place[] };
  /** The action's answer, which brings the cities after 'Update cities'. */
  reloaded: ComponentProps<typeof CountryCityFields>["reloaded"];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const fields = form.getFieldset();
  const actions = (grow: string) => (
    <>
      <Link to={`/${role}/profile`} className={`btn-secondary${grow}`}>
        {t(`${role}:profile.cancel`)}
      </Link>
      <SubmitButton className={`btn-primary${grow}`} name="intent" value="save">
        {t(`${role}:profile.save`)}
      </SubmitButton>
    </>
  );
  return (
    <Form method="post" className="space-y-4 pb-20 sm:pb-0" {...getFormProps(form)}>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="idempotencyKey" value={data.idempotencyKey} />
      <div className="grid gap-4 sm:grid-cols-2">
        {children}
        <CountryCityFields
          idPrefix="profile"
          ns={role === "doctor" ? "doctor:profile" : "patient:location"}
          countries={data.countries}
          cities={data.cities}
          reloaded={reloaded}
          initialCountry={String(fields.countryId.initialValue ?? "")}
          initialCity={String(fields.cityId.initialValue ?? "")}
          cityErrors={fields.cityId.errors}
        />
      </div>
      <div className="hidden justify-end gap-2 sm:flex">{actions("")}</div>
      <div className="fixed inset-x-0 bottom-0 z-20 flex gap-2 border-t border-slate-200 bg-white p-3 sm:hidden">
        {actions(" flex-1")}
      </div>
    </Form>
  );
}
