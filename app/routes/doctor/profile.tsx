// The doctor's profile behind the code gate (SPEC.md sections 2 and 4, DESIGN.md section 3).
// Without a valid gate record the loader sends a code and the page shows the code dialog; with it,
// the profile card, the edit form (?edit=1), account deletion (?delete=1) and the data download.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useFetcher, useLocation, useNavigation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Route } from "./+types/profile";
import { getUser, upstream } from "../../auth.server.ts";
import { Avatar } from "../../components/avatar.tsx";
import { CodeInput, readCode } from "../../components/code-input.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { formatDate } from "../../components/doctor/appointment-card.tsx";
import { Field, FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { PageHeader } from "../../components/page.tsx";
import { logoutRedirect, sessionStorage } from "../../session.server.ts";
import { redirectWithToast, toastCookie } from "../../toast.server.ts";
import type { Upstream } from "../../upstream.server.ts";
import { profileAccess } from "./profile-gate.server.ts";
import { doctorProfileSchema } from "./profile-schema.ts";

interface Place {
  id: number;
  name: string;
}

export interface DoctorProfile {
  id?: string;
  username: string;
  email: string;
  contact: string | null;
  gender: "male" | "female" | "other" | null;
  serial_number: string | null;
  duty_hospital: string | null;
  biography: string | null;
  countryId: number | null;
  cityId: number | null;
  Country: Place | null;
  City: Place | null;
  specialities: Place[];
  avatarUrl: string | null;
  createdAt: string;
  verification?: string;
}

const codeErrors: Record<string, string> = {
  invalid_code: "doctor:gate.invalidCode",
  code_expired: "doctor:gate.expired",
  too_many_attempts: "doctor:gate.tooMany",
  resend_too_soon: "doctor:gate.resendTooSoon",
  network: "common:errors.network",
};

const citiesOf = async (api: Upstream, countryId: number | null | undefined) => {
  if (!countryId) return [];
  const answer = await api.call<Place[]>("GET", `/location/city/${countryId}`);
  return answer.ok ? answer.data : [];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const { valid, stale, session } = await profileAccess(request, user.id);
  const profile = await api.get<DoctorProfile>("/doctor/doctor-info");
  if (!valid) {
    // The dialog sends a code when it opens; the API does not resend within a minute.
    const sent = await api.call("POST", "/auth/generateProfileOtp", { body: { email: profile.email } });
    const headers = new Headers();
    if (stale) {
      session.unset("profileVerified");
      headers.append("Set-Cookie", await sessionStorage.commitSession(session));
    }
    return data(
      { gate: true as const, email: profile.email, sendError: sent.ok ? null : (codeErrors[sent.code ?? ""] ?? "doctor:gate.sendFailed") },
      { headers },
    );
  }
  // ?country= (the 'update cities' step, or the in-place fetch with JavaScript) picks the city list.
  const country = Number(params.get("country")) || profile.countryId;
  if (params.has("citiesOnly")) return { gate: false as const, citiesOnly: true as const, cities: await citiesOf(api, country) };
  const [countries, cities] = await Promise.all([api.call<Place[]>("GET", "/location/country"), citiesOf(api, country)]);
  return {
    gate: false as const,
    citiesOnly: false as const,
    profile,
    countries: countries.ok ? countries.data : [],
    cities,
    editing: params.get("edit") === "1",
    deleting: params.get("delete") === "1",
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const userId = encodeURIComponent(user.id);

  if (intent === "verify") {
    const code = readCode(formData);
    if (!/^\d{6}$/.test(code)) return data({ gateError: "doctor:gate.incomplete", notice: null }, { status: 400 });
    const answer = await api.call("PUT", `/auth/verifyProfileOtp/${userId}`, { body: { otpCode: code } });
    if (!answer.ok) return data({ gateError: codeErrors[answer.code ?? ""] ?? "doctor:gate.invalidCode", notice: null }, { status: answer.status });
    const { session } = await profileAccess(request, user.id);
    session.set("profileVerified", { userId: user.id, verifiedAt: Date.now() });
    const headers = new Headers();
    headers.append("Set-Cookie", await sessionStorage.commitSession(session));
    headers.append("Set-Cookie", await toastCookie({ type: "success", message: "doctor:gate.verified" }));
    throw redirect("/doctor/profile", { headers });
  }

  if (intent === "resend") {
    const answer = await api.call("PUT", `/auth/resendProfileOtp/${userId}`);
    if (!answer.ok) return data({ gateError: codeErrors[answer.code ?? ""] === "doctor:gate.resendTooSoon" ? "doctor:gate.resendTooSoon" : "doctor:gate.resendFailed", notice: null }, { status: answer.status });
    return { gateError: null, notice: "doctor:gate.resent" };
  }

  // Everything below needs a passed gate.
  const { valid } = await profileAccess(request, user.id);
  if (!valid) throw redirect("/doctor/profile");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "delete") {
    const answer = await api.call("DELETE", "/auth/delete-account", { idempotencyKey });
    if (!answer.ok) return redirectWithToast("/doctor/profile", { type: "error", message: "doctor:profile.deleteFailed" });
    const headers = new Headers();
    headers.append("Set-Cookie", await toastCookie({ type: "success", message: "doctor:profile.deleted" }));
    throw await logoutRedirect(request, "/login", headers);
  }

  const submission = parseWithZod(formData, { schema: doctorProfileSchema });
  if (intent === "cities") {
    // Without JavaScript: reload the city list for the chosen country, keeping what was typed.
    if (formData.get("countryId") !== formData.get("loadedCountryId")) formData.set("cityId", "");
    const kept = parseWithZod(formData, { schema: doctorProfileSchema });
    return { result: kept.reply({ resetForm: false }), cities: await citiesOf(api, Number(formData.get("countryId")) || null), country: String(formData.get("countryId") ?? "") };
  }
  if (submission.status !== "success") return data({ result: submission.reply(), cities: null, country: null }, { status: 400 });
  const v = submission.value;
  const answer = await api.call("PUT", "/doctor/me", {
    body: {
      username: v.username,
      contact: v.contact,
      gender: v.gender ?? null,
      serial_number: v.serial_number,
      duty_hospital: v.duty_hospital,
      biography: v.biography,
      countryId: v.countryId ?? null,
      cityId: v.cityId ?? null,
    },
    idempotencyKey,
  });
  if (!answer.ok) return data({ result: submission.reply({ formErrors: ["doctor:profile.updateFailed"] }), cities: null, country: null }, { status: answer.status });
  return redirectWithToast("/doctor/profile", { type: "success", message: "doctor:profile.updated" });
}

type ActionData = Route.ComponentProps["actionData"];

function CodeGate({ email, sendError, actionData }: { email: string; sendError: string | null; actionData: ActionData }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [code, setCode] = useState("");
  const [edited, setEdited] = useState(false);
  const gate = actionData && "gateError" in actionData ? actionData : null;
  // A new answer clears the boxes (the key changes); a new digit clears the banner.
  const error = edited ? null : (gate?.gateError ?? sendError);
  return (
    <section>
      <PageHeader title={t("doctor:profile.title")} />
      <Dialog title={t("doctor:gate.title")} closeTo="/doctor/appointments">
        <p className="mb-4 text-sm text-slate-700">{t("doctor:gate.sentTo", { email })}</p>
        <Form method="post" className="space-y-4" onSubmit={() => setEdited(false)} key={JSON.stringify(gate)}>
          <FormAlert message={error} />
          <FormAlert tone="info" message={gate?.notice} />
          <CodeInput
            autoFocus
            invalid={Boolean(error)}
            onChange={(value) => {
              setCode(value);
              setEdited(true);
            }}
          />
          <SubmitButton className="btn-primary w-full" name="intent" value="verify" disabled={hydrated && (code.length !== 6 || navigation.state !== "idle")}>
            {t("doctor:gate.verify")}
          </SubmitButton>
        </Form>
        <div className="mt-4 flex flex-wrap justify-between gap-2">
          <Form method="post">
            <SubmitButton className="btn-secondary" name="intent" value="resend">
              {t("doctor:gate.resend")}
            </SubmitButton>
          </Form>
          <Link to="/doctor/appointments" className="btn-secondary">
            {t("doctor:gate.cancel")}
          </Link>
        </div>
      </Dialog>
    </section>
  );
}

const notProvided = (value: string | null | undefined, t: (k: string) => string) => (value ? value : t("doctor:profile.notProvided"));

type ProfileData = Extract<Route.ComponentProps["loaderData"], { gate: false; citiesOnly: false }>;

function ProfileForm({ data: d, actionData }: { data: ProfileData; actionData: ActionData }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const location = useLocation();
  const cityFetcher = useFetcher<{ cities: Place[] }>();
  const submitted = actionData && "result" in actionData ? actionData : null;
  const p = d.profile;
  const [form, fields] = useForm({
    id: "doctor-profile",
    lastResult: submitted?.result,
    defaultValue: {
      username: p.username,
      contact: p.contact ?? "",
      gender: p.gender === "male" || p.gender === "female" ? p.gender : "",
      serial_number: p.serial_number ?? "",
      duty_hospital: p.duty_hospital ?? "",
      biography: p.biography ?? "",
      countryId: p.countryId ? String(p.countryId) : "",
      cityId: p.cityId ? String(p.cityId) : "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: doctorProfileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const initialCountry = submitted?.country ?? String(fields.countryId.initialValue ?? "");
  const [country, setCountry] = useState(initialCountry);
  const [city, setCity] = useState(String(fields.cityId.initialValue ?? ""));
  const loadingCities = cityFetcher.state !== "idle";
  const cities = (hydrated && cityFetcher.data?.cities) || submitted?.cities || d.cities;
  return (
    <Form method="post" className="space-y-4 pb-20 sm:pb-0" {...getFormProps(form)}>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
      <input type="hidden" name="loadedCountryId" value={initialCountry} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("doctor:profile.username")} {...getInputProps(fields.username, { type: "text" })} autoComplete="name" errors={fields.username.errors} />
        <Field label={t("doctor:profile.contact")} {...getInputProps(fields.contact, { type: "tel" })} autoComplete="tel" errors={fields.contact.errors} />
        <SelectField label={t("doctor:profile.gender")} {...getSelectProps(fields.gender)}>
          <option value="">{t("doctor:profile.notProvided")}</option>
          <option value="male">{t("doctor:profile.male")}</option>
          <option value="female">{t("doctor:profile.female")}</option>
        </SelectField>
        <Field label={t("doctor:profile.serial")} {...getInputProps(fields.serial_number, { type: "text" })} errors={fields.serial_number.errors} />
        <Field label={t("doctor:profile.dutyHospital")} {...getInputProps(fields.duty_hospital, { type: "text" })} className="sm:col-span-2" />
        <TextAreaField label={t("doctor:profile.biography")} {...getTextareaProps(fields.biography)} rows={4} className="sm:col-span-2" />
        <SelectField
          label={t("doctor:profile.country")}
          name="countryId"
          value={country}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setCountry(value);
            setCity("");
            if (value) cityFetcher.load(`${location.pathname}?citiesOnly=1&country=${value}`);
          }}
        >
          <option value="">{t("doctor:profile.selectCountry")}</option>
          {d.countries.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("doctor:profile.city")} name="cityId" value={city} onChange={(e) => setCity(e.currentTarget.value)} disabled={!country || loadingCities}>
          <option value="">
            {!country ? t("doctor:profile.selectCountryFirst") : loadingCities ? t("doctor:profile.loadingCities") : cities.length === 0 ? t("doctor:profile.noCities") : t("doctor:profile.selectCity")}
          </option>
          {loadingCities
            ? null
            : cities.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
        </SelectField>
      </div>
      {!hydrated ? (
        <button type="submit" name="intent" value="cities" className="btn-secondary" formNoValidate>
          {t("doctor:profile.updateCities")}
        </button>
      ) : null}
      <div className="hidden justify-end gap-2 sm:flex">
        <Link to="/doctor/profile" className="btn-secondary">
          {t("doctor:profile.cancel")}
        </Link>
        <SubmitButton name="intent" value="save">
          {t("doctor:profile.save")}
        </SubmitButton>
      </div>
      {/* Mobile: a sticky bottom action bar (SPEC.md section 2). */}
      <div className="fixed inset-x-0 bottom-0 z-20 flex gap-2 border-t border-slate-200 bg-white p-3 sm:hidden">
        <Link to="/doctor/profile" className="btn-secondary flex-1">
          {t("doctor:profile.cancel")}
        </Link>
        <SubmitButton className="btn-primary flex-1" name="intent" value="save">
          {t("doctor:profile.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}

function ProfileView({ p }: { p: DoctorProfile }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t("doctor:profile.username"), p.username],
    [t("doctor:profile.contact"), notProvided(p.contact, t)],
    [t("doctor:profile.gender"), p.gender === "male" || p.gender === "female" ? t(`doctor:profile.${p.gender}`) : t("doctor:profile.notProvided")],
    [t("doctor:profile.serial"), notProvided(p.serial_number, t)],
    [t("doctor:profile.dutyHospital"), notProvided(p.duty_hospital, t)],
    [t("doctor:profile.biography"), notProvided(p.biography, t)],
    [t("doctor:profile.country"), notProvided(p.Country?.name, t)],
    [t("doctor:profile.city"), notProvided(p.City?.name, t)],
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

export default function DoctorProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  if (loaderData.gate) return <CodeGate email={loaderData.email} sendError={loaderData.sendError} actionData={actionData} />;
  if (loaderData.citiesOnly) return null;
  const d = loaderData;
  const p = d.profile;
  const editing = d.editing || Boolean(actionData && "result" in actionData);
  return (
    <section>
      <PageHeader
        title={t("doctor:profile.title")}
        actions={
          editing ? null : (
            <>
              <Link to="?edit=1" className="btn-primary">
                {t("doctor:profile.edit")}
              </Link>
              <a href="/doctor/profile/export" className="btn-secondary" download>
                {t("doctor:profile.download")}
              </a>
              <Link to="?delete=1" className="btn-danger">
                {t("doctor:profile.delete")}
              </Link>
            </>
          )
        }
      />
      <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
        <aside className="card flex flex-col items-center gap-2 text-center">
          <Avatar name={p.username} url={p.avatarUrl} size="lg" />
          <h2 className="text-lg font-semibold">{t("doctor:profile.drName", { name: p.username })}</h2>
          <span className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800">{t("doctor:profile.badge")}</span>
          <p className="text-sm text-slate-700">{p.email}</p>
          {p.contact ? <p className="text-sm text-slate-700">{p.contact}</p> : null}
          {p.duty_hospital ? <p className="text-sm text-slate-700">{p.duty_hospital}</p> : null}
          {p.serial_number ? <p className="text-sm text-slate-700">{t("doctor:profile.serialShort", { serial: p.serial_number })}</p> : null}
          <p className="text-xs text-slate-600">{t("doctor:profile.memberSince", { date: formatDate(p.createdAt.slice(0, 10), i18n.language) })}</p>
        </aside>
        <div className="card space-y-4">
          <h2 className="text-lg font-semibold">{t("doctor:profile.details")}</h2>
          {editing ? <ProfileForm data={d} actionData={actionData} /> : <ProfileView p={p} />}
          <div>
            <h3 className="text-sm font-medium text-slate-700">{t("doctor:profile.specialities")}</h3>
            {p.specialities.length ? (
              <ul className="mt-1 flex flex-wrap gap-2">
                {p.specialities.map((s) => (
                  <li key={s.id} className="rounded-full bg-slate-100 px-3 py-0.5 text-sm text-slate-800">
                    {s.name}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-slate-900">{t("doctor:profile.noSpecialities")}</p>
            )}
            <p className="mt-1 text-xs text-slate-600">{t("doctor:profile.specialitiesHint")}</p>
          </div>
        </div>
      </div>
      {d.deleting ? (
        <Dialog title={t("doctor:profile.deleteTitle")} closeTo="/doctor/profile">
          <p className="mb-4 text-sm text-slate-800">{t("doctor:profile.deleteWarning")}</p>
          <Form method="post" className="flex justify-end gap-2">
            <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
            <Link to="/doctor/profile" className="btn-secondary">
              {t("doctor:profile.keepAccount")}
            </Link>
            <SubmitButton className="btn-danger" name="intent" value="delete">
              {t("doctor:profile.deleteConfirm")}
            </SubmitButton>
          </Form>
        </Dialog>
      ) : null}
    </section>
  );
}
