// What the patient's and the doctor's profile pages share (docs/product.md, Screens and routes): the header with its
// actions, the identity card, the details list, the edit form's frame, the gender choice and the
// account deletion dialog. Texts come from `<role>:profile`, links go to `/<role>/profile`.
import { getFormProps, type FormMetadata } from "@conform-to/react";
import type { ComponentProps, ReactNode, SelectHTMLAttributes } from "react";
import { useTranslation } from "../i18n.ts";
import { Form, Link } from "react-router";
import { Avatar } from "./avatar.tsx";
import { CountryCityFields } from "./country-city.tsx";
import { Dialog } from "./dialog.tsx";
import { formatDate } from "../format.ts";
import { FormAlert, SelectField, SubmitButton } from "./forms.tsx";
import { PageHeader } from "./page.tsx";
import type { Country, Place } from "../../contract/reference.ts";

type Role = "doctor" | "patient";

/** Male and female are the choices the form offers; anything else reads 'Not provided'. */
export const knownGender = (gender: string | null) => (gender === "male" || gender === "female" ? gender : null);

/** The edit form's values both profiles have: the name, the gender and the place (unset ones empty). */
export const sharedDefaults = (p: { username: string; gender: string | null; countryId: number | null; cityId: number | null }) => ({
  username: p.username,
  gender: knownGender(p.gender) ?? "",
  countryId: p.countryId ? String(p.countryId) : "",
  cityId: p.cityId ? String(p.cityId) : "",
});

/** The title; outside the form, Edit, 'Download my data', a patient's 'Who saw my data' and 'Delete account'. */
export function ProfileHeader({ role, editing }: { role: Role; editing: boolean }) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={t(`${role}:profile.title`)}
      actions={
        editing ? null : (
          <>
            <Link to="?edit=1" className="btn-primary">
              {t(`${role}:profile.edit`)}
            </Link>
            <a href={`/${role}/profile/export`} className="btn-secondary" download>
              {t(`${role}:profile.download`)}
            </a>
            {role === "patient" ? (
              <Link to="/patient/profile/access" className="btn-secondary">
                {t("patient:access.title")}
              </Link>
            ) : null}
            <Link to="?delete=1" className="btn-danger">
              {t(`${role}:profile.delete`)}
            </Link>
          </>
        )
      }
    />
  );
}

/** The identity card: avatar, name, role badge, e-mail, the given lines (empty ones left out) and the join date. */
export function ProfileCard(props: { role: Role; name: string; title: string; avatarUrl: string | null; email: string; lines: (string | null)[]; createdAt: string }) {
  const { t, i18n } = useTranslation();
  return (
    <aside className="card flex flex-col items-center gap-2 text-center">
      <Avatar name={props.name} url={props.avatarUrl} size="lg" />
      <h2 className="text-lg font-semibold">{props.title}</h2>
      <span className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800">{t(`${props.role}:profile.badge`)}</span>
      <p className="text-sm text-slate-700">{props.email}</p>
      {props.lines.map((line, i) =>
        line ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines rendered once; two may be equal
          <p key={i} className="text-sm whitespace-pre-line text-slate-700">
            {line}
          </p>
        ) : null,
      )}
      <p className="text-xs text-slate-600">{t(`${props.role}:profile.memberSince`, { date: formatDate(props.createdAt, i18n.language) })}</p>
    </aside>
  );
}

/** The details as label and value; an empty value reads 'Not provided'. */
export function ProfileFacts({ role, facts }: { role: Role; facts: [label: string, value: string | null | undefined][] }) {
  const { t } = useTranslation();
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-700">{label}</dt>
          <dd className="whitespace-pre-line text-slate-900">{value || t(`${role}:profile.notProvided`)}</dd>
        </div>
      ))}
    </dl>
  );
}

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
export function ProfileForm<Schema extends { countryId?: unknown; cityId?: unknown }>({
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
      <div className="fixed inset-x-0 bottom-0 z-20 flex gap-2 border-t border-slate-200 bg-white p-3 sm:hidden">{actions(" flex-1")}</div>
    </Form>
  );
}

/** The ?delete=1 dialog: the warning, 'Keep my account' and 'Delete my account' (intent=delete); a refusal is said inside it. */
export function DeleteAccountDialog({ role, idempotencyKey, error }: { role: Role; idempotencyKey: string; error?: string | null }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t(`${role}:profile.deleteTitle`)} closeTo={`/${role}/profile`}>
      <p className="mb-4 text-sm text-slate-800">{t(`${role}:profile.deleteWarning`)}</p>
      <FormAlert message={error} className="mb-4" />
      <Form method="post" className="flex flex-wrap justify-end gap-2">
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Link to={`/${role}/profile`} className="btn-secondary">
          {t(`${role}:profile.keepAccount`)}
        </Link>
        <SubmitButton className="btn-danger" name="intent" value="delete">
          {t(`${role}:profile.deleteConfirm`)}
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

/** The page around the card and the details (the form when editing, the list otherwise). */
export function ProfileLayout({ card, title, children }: { card: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
      {card}
      <div className="card space-y-4">
        <h2 className="text-lg font-semibold">{title}</h2>
        {children}
      </div>
    </div>
  );
}
