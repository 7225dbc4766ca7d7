// The patient's profile (SPEC.md section 2): a view, the edit form (?edit=1) with the country/city
// pair, account deletion (?delete=1) and 'Download my data' (/patient/profile/export).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/profile";
import { requireUser, upstream } from "../../auth.server.ts";
import { Avatar } from "../../components/avatar.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { PageHeader } from "../../components/page.tsx";
import { CountryCityFields } from "../../components/patient/country-city.tsx";
import { formatDate } from "../../components/patient/format.ts";
import type { PatientProfile, Place } from "../../components/patient/types.ts";
import { logoutRedirect } from "../../session.server.ts";
import { redirectWithToast, toastCookie } from "../../toast.server.ts";
import { citiesOf, positiveId } from "../health/doctors.server.ts";
import { patientProfileSchema } from "./profile-schema.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const profile = await api.get<PatientProfile | null>("/patient/me");
  const editing = params.get("edit") === "1";
  const [countries, cities] = editing
    ? await Promise.all([api.call<Place[]>("GET", "/location/country"), citiesOf(api, profile?.countryId)])
    : [null, [] as Place[]];
  return {
    profile,
    countries: countries?.ok ? countries.data : [],
    cities,
    editing,
    deleting: params.get("delete") === "1",
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = upstream(request, context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "delete") {
    const answer = await api.call("DELETE", "/auth/delete-account", { idempotencyKey });
    if (!answer.ok) return redirectWithToast("/patient/profile", { type: "error", message: "patient:profile.deleteFailed" });
    const headers = new Headers();
    headers.append("Set-Cookie", await toastCookie({ type: "success", message: "patient:profile.deleted" }));
    throw await logoutRedirect(request, "/login", headers);
  }

  if (intent === "cities") {
    // Without JavaScript: reload the city list for the chosen country, keeping what was typed.
    if (formData.get("countryId") !== formData.get("loadedCountryId")) formData.set("cityId", "");
    const kept = parseWithZod(formData, { schema: patientProfileSchema });
    return {
      result: { ...kept.reply({ resetForm: false }), error: {} },
      cities: await citiesOf(api, positiveId(String(formData.get("countryId") ?? ""))),
      country: String(formData.get("countryId") ?? ""),
    };
  }

  const submission = parseWithZod(formData, { schema: patientProfileSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), cities: null, country: null }, { status: 400 });
  const v = submission.value;
  const answer = await api.call("PUT", "/patient/me", {
    body: {
      username: v.username,
      phone: v.phone,
      gender: v.gender ?? null,
      profession: v.profession,
      address: v.address,
      countryId: v.countryId ?? null,
      cityId: v.cityId ?? null,
    },
    idempotencyKey,
  });
  if (!answer.ok) {
    const message = answer.code === "invalid_phone" ? "patient:profile.invalidPhone" : "patient:profile.updateFailed";
    return data({ result: submission.reply({ formErrors: [message] }), cities: null, country: null }, { status: answer.status });
  }
  return redirectWithToast("/patient/profile", { type: "success", message: "patient:profile.updated" });
}

type LoaderData = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

function ProfileForm({ d, p, actionData }: { d: LoaderData; p: PatientProfile; actionData: ActionData }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "patient-profile",
    lastResult: actionData?.result,
    defaultValue: {
      username: p.username,
      phone: p.phone ?? "",
      gender: p.gender === "male" || p.gender === "female" ? p.gender : "",
      profession: p.profession ?? "",
      address: p.address ?? "",
      countryId: p.countryId ? String(p.countryId) : "",
      cityId: p.cityId ? String(p.cityId) : "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: patientProfileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const reloaded = actionData?.country != null;
  return (
    <Form method="post" className="space-y-4 pb-20 sm:pb-0" {...getFormProps(form)}>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("patient:profile.username")} {...getInputProps(fields.username, { type: "text" })} autoComplete="name" errors={fields.username.errors} />
        <Field label={t("patient:profile.phone")} {...getInputProps(fields.phone, { type: "tel" })} autoComplete="tel" errors={fields.phone.errors} />
        <SelectField label={t("patient:profile.gender")} {...getSelectProps(fields.gender)}>
          <option value="">{t("patient:profile.notProvided")}</option>
          <option value="male">{t("patient:profile.male")}</option>
          <option value="female">{t("patient:profile.female")}</option>
        </SelectField>
        <Field label={t("patient:profile.profession")} {...getInputProps(fields.profession, { type: "text" })} autoComplete="organization-title" />
        <TextAreaField label={t("patient:profile.address")} {...getTextareaProps(fields.address)} rows={3} className="sm:col-span-2" autoComplete="street-address" />
        <CountryCityFields
          idPrefix="profile"
          countries={d.countries}
          cities={reloaded ? (actionData?.cities ?? []) : d.cities}
          initialCountry={reloaded ? actionData!.country! : String(fields.countryId.initialValue ?? "")}
          initialCity={String(fields.cityId.initialValue ?? "")}
        />
      </div>
      <div className="hidden justify-end gap-2 sm:flex">
        <Link to="/patient/profile" className="btn-secondary">
          {t("patient:profile.cancel")}
        </Link>
        <SubmitButton name="intent" value="save">
          {t("patient:profile.save")}
        </SubmitButton>
      </div>
      {/* Mobile: a sticky bottom action bar (SPEC.md section 2). */}
      <div className="fixed inset-x-0 bottom-0 z-20 flex gap-2 border-t border-slate-200 bg-white p-3 sm:hidden">
        <Link to="/patient/profile" className="btn-secondary flex-1">
          {t("patient:profile.cancel")}
        </Link>
        <SubmitButton className="btn-primary flex-1" name="intent" value="save">
          {t("patient:profile.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}

function ProfileView({ p }: { p: PatientProfile }) {
  const { t } = useTranslation();
  const or = (value: string | null | undefined) => value || t("patient:profile.notProvided");
  const rows: [string, string][] = [
    [t("patient:profile.username"), p.username],
    [t("patient:profile.phone"), or(p.phone)],
    [t("patient:profile.gender"), p.gender === "male" || p.gender === "female" ? t(`patient:profile.${p.gender}`) : t("patient:profile.notProvided")],
    [t("patient:profile.profession"), or(p.profession)],
    [t("patient:profile.address"), or(p.address)],
    [t("patient:location.country"), or(p.Country?.name)],
    [t("patient:location.city"), or(p.City?.name)],
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-700">{label}</dt>
          <dd className="whitespace-pre-line text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function PatientProfilePage({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const p = d.profile;
  if (navigation.state === "loading" && navigation.location.pathname === "/patient/profile" && !p) {
    return <p role="status">{t("patient:profile.loading")}</p>;
  }
  if (!p) {
    return (
      <section>
        <PageHeader title={t("patient:profile.title")} />
        <p className="card text-slate-700">{t("patient:profile.noData")}</p>
      </section>
    );
  }
  const editing = d.editing || Boolean(actionData);
  return (
    <section>
      <PageHeader
        title={t("patient:profile.title")}
        actions={
          editing ? null : (
            <>
              <Link to="?edit=1" className="btn-primary">
                {t("patient:profile.edit")}
              </Link>
              <a href="/patient/profile/export" className="btn-secondary" download>
                {t("patient:profile.download")}
              </a>
              <Link to="?delete=1" className="btn-danger">
                {t("patient:profile.delete")}
              </Link>
            </>
          )
        }
      />
      {navigation.state === "loading" && navigation.location.pathname === "/patient/profile" ? (
        <p role="status" className="mb-2 text-sm text-slate-700">
          {t("patient:profile.loading")}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
        <aside className="card flex flex-col items-center gap-2 text-center">
          <Avatar name={p.username} url={p.avatarUrl} size="lg" />
          <h2 className="text-lg font-semibold">{p.username}</h2>
          <span className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800">{t("patient:profile.badge")}</span>
          <p className="text-sm text-slate-700">{p.email}</p>
          {p.phone ? <p className="text-sm text-slate-700">{p.phone}</p> : null}
          {p.address ? <p className="text-sm whitespace-pre-line text-slate-700">{p.address}</p> : null}
          {p.profession ? <p className="text-sm text-slate-700">{p.profession}</p> : null}
          <p className="text-xs text-slate-600">{t("patient:profile.memberSince", { date: formatDate(p.createdAt.slice(0, 10), i18n.language) })}</p>
        </aside>
        <div className="card space-y-4">
          <h2 className="text-lg font-semibold">{t("patient:profile.details")}</h2>
          {editing ? <ProfileForm d={d} p={p} actionData={actionData} /> : <ProfileView p={p} />}
        </div>
      </div>
      {d.deleting ? (
        <Dialog title={t("patient:profile.deleteTitle")} closeTo="/patient/profile">
          <p className="mb-4 text-sm text-slate-800">{t("patient:profile.deleteWarning")}</p>
          <Form method="post" className="flex flex-wrap justify-end gap-2">
            <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
            <Link to="/patient/profile" className="btn-secondary">
              {t("patient:profile.keepAccount")}
            </Link>
            <SubmitButton className="btn-danger" name="intent" value="delete">
              {t("patient:profile.deleteConfirm")}
            </SubmitButton>
          </Form>
        </Dialog>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : (error as { data?: string })?.data;
  return (
    <section>
      <PageHeader title={t("patient:profile.title")} />
      <div role="alert" className="card space-y-2">
        <p className="text-red-800">{message || t("patient:profile.fetchFailed")}</p>
        <a href="/patient/profile" className="btn-secondary">
          {t("patient:profile.retry")}
        </a>
      </div>
    </section>
  );
}
