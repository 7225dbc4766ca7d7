// Patient dashboard and find-a-doctor (docs/product.md, Screens and routes): welcome, upcoming appointment, up to 3
// confirmed, a count; a GET search form with paging; doctor cards whose Book link opens the book
// dialog (?book=<id>&date=…) and a request dialog (?request=1) for open requests.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Route } from "./+types/doctors";
import { getUser, pageOf, upstream } from "../../auth.server.ts";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { PageHeader } from "../../components/page.tsx";
import { useLazyValidation } from "../../components/lazy-validation.ts";
import { CountryCityFields } from "../../components/country-city.tsx";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { placeOf } from "../../components/patient/format.ts";
import { countryOptions, formatDate, formatMoney, formatPlace, specialityName } from "../../format.ts";
import { Pagination } from "../../components/pagination.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import { slotOf } from "../../format.ts";
import { clinicToday } from "../../clinic.server.ts";
import { APPOINTMENT_TYPES, CONNECTION_QUALITIES, DEVICE_TYPES, SLOTS, VIDEO_PLATFORMS } from "../../../contract/constants.ts";
import { bookAction, bookingOf, dashboardOf, requestAction, searchDoctors } from "./doctors.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const today = clinicToday();
  const [dashboard, found, booking] = await Promise.all([
    dashboardOf(context),
    searchDoctors(api, params),
    bookingOf(api, params, today),
  ]);
  return {
    username: user.username,
    dashboard,
    ...found,
    booking,
    requesting: params.get("request") === "1",
    today,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const today = clinicToday();
  return formData.get("form") === "request" ? requestAction(api, formData, today) : bookAction(api, formData, today, pageOf(request));
}

// A refused booking (409 slot taken) must show the slots as they are now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

function AppointmentLine({ a }: { a: PatientAppointment }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="font-semibold text-slate-900">{a.Doctor ? t("patient:doctors.drName", { name: a.Doctor.username }) : t("patient:appointments.noDoctorYet")}</p>
      <p className="text-sm text-slate-700">
        {formatDate(a.date, i18n.language)} · {slotOf(a)}
        {a.Speciality ? ` · ${specialityName(a.Speciality, i18n.language)}` : null}
      </p>
      <p className="text-sm text-slate-700">{placeOf(a, t, i18n.language)}</p>
    </>
  );
}

function Dashboard({ d }: { d: Data["dashboard"] }) {
  const { t } = useTranslation();
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-2">
      <section className="card" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title" className="mb-2 text-lg font-semibold">
          {t("patient:doctors.upcomingTitle")}
        </h2>
        {d.upcoming ? (
          <div className="flex items-start justify-between gap-3">
            <div>
              <AppointmentLine a={d.upcoming} />
              <ClinicTimeZone />
            </div>
            <StatusBadge status={d.upcoming.status} role="patient" />
          </div>
        ) : (
          <p className="text-slate-700">{t("patient:doctors.noUpcoming")}</p>
        )}
      </section>
      <section className="card" aria-labelledby="confirmed-title">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h2 id="confirmed-title" className="text-lg font-semibold">
            {t("patient:doctors.confirmedTitle")}
          </h2>
          <Link to="/health/doctors/my-appointments?tab=assigned&status=confirmed" className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800">
            {t("patient:doctors.confirmedCount", { count: d.confirmedAhead })}
          </Link>
        </div>
        {d.confirmed.length ? (
          <ul className="space-y-3">
            {d.confirmed.map((a) => (
              <li key={a.id} className="border-l-4 border-green-700 pl-3">
                <AppointmentLine a={a} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">{t("patient:doctors.noConfirmed")}</p>
        )}
        <Link to="/health/doctors/my-appointments" className="link-alone mt-3 text-sm">
          {t("patient:doctors.allCount", { count: d.total })}
        </Link>
      </section>
    </div>
  );
}

function DoctorSearch({ d }: { d: Data }) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  return (
    <Form method="get" role="search" aria-label={t("patient:doctors.searchTitle")} className="card mb-4 grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <Field label={t("patient:doctors.name")} type="search" name="search" defaultValue={d.filters.search} id="doctor-search" />
      <SelectField label={t("patient:doctors.speciality")} name="speciality" defaultValue={d.filters.speciality} id="doctor-speciality">
        <option value="">{t("patient:doctors.allSpecialities")}</option>
        {d.specialities.map((s) => (
          <option key={s.id} value={s.id}>
            {specialityName(s, i18n.language)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t("patient:location.country")}
        name="country"
        defaultValue={d.filters.country}
        id="doctor-country"
        onChange={(e) => {
          // With JavaScript, a new country reloads the city list at once (its city is cleared).
          const form = e.currentTarget.form;
          const city = form?.elements.namedItem("city") as HTMLSelectElement | null;
          if (city) city.value = "";
          form?.requestSubmit();
        }}
      >
        <option value="">{t("patient:location.allCountries")}</option>
        {countryOptions(d.countries, i18n.language).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t("patient:location.city")} name="city" defaultValue={d.filters.city} id="doctor-city" key={d.filters.country}>
        <option value="">{d.filters.country ? t("patient:location.allCities") : t("patient:location.selectCountryFirst")}</option>
        {d.cities.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="btn-primary">
        {hydrated ? t("patient:doctors.search") : t("patient:doctors.searchOrUpdate")}
      </button>
    </Form>
  );
}

function TypeChoice({ idPrefix, defaultValue, errors }: { idPrefix: string; defaultValue?: string; errors?: string[] }) {
  const { t } = useTranslation();
  return (
    <fieldset aria-describedby={errors?.length ? `${idPrefix}-type-error` : undefined}>
      <legend className="label">{t("patient:form.type")}</legend>
      <div className="grid grid-cols-2 gap-2">
        {APPOINTMENT_TYPES.map((type) => (
          <label key={type} className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-600 has-checked:bg-brand-50">
            <input type="radio" name="type" value={type} id={`${idPrefix}-type-${type}`} defaultChecked={defaultValue === type} />
            {t(`patient:type.${type}`)}
          </label>
        ))}
      </div>
      <FieldErrors id={`${idPrefix}-type-error`} errors={errors} />
    </fieldset>
  );
}

type OnlineField = FieldMetadata<string | undefined, Record<string, unknown>, string[]>;

function OnlineDetails({ fields, className }: { fields: Record<"deviceType" | "internetQuality" | "videoPreference", OnlineField>; className: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className={className}>
      <legend className="label">{t("patient:form.onlineDetails")}</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField label={t("patient:form.deviceType")} {...getSelectProps(fields.deviceType)}>
          <option value="">{t("patient:form.choose")}</option>
          {DEVICE_TYPES.map((v) => (
            <option key={v} value={v}>
              {t(`patient:form.device.${v}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("patient:form.connection")} {...getSelectProps(fields.internetQuality)}>
          <option value="">{t("patient:form.choose")}</option>
          {CONNECTION_QUALITIES.map((v) => (
            <option key={v} value={v}>
              {t(`patient:form.quality.${v}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("patient:form.platform")} {...getSelectProps(fields.videoPreference)}>
          <option value="">{t("patient:form.choose")}</option>
          {VIDEO_PLATFORMS.map((v) => (
            <option key={v} value={v}>
              {t(`patient:form.video.${v}`)}
            </option>
          ))}
        </SelectField>
      </div>
    </fieldset>
  );
}

function BookDialog({ d, booking: loaded, actionData }: { d: Data; booking: NonNullable<Data["booking"]>; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, { book: null, date: null });
  // A refused booking made on a newly typed date comes back with that date's slots.
  const booking = (actionData?.form === "book" && actionData.booking) || loaded;
  const { doctor, date, slots } = booking;
  const onValidate = useLazyValidation(() => import("./appointment-schemas.ts"), (parse, s, formData) => parse(formData, { schema: s.bookSchema(d.today) }));
  const [form, fields] = useForm({
    id: "book",
    lastResult: actionData?.form === "book" ? actionData.result : undefined,
    defaultValue: { doctorId: doctor.id, date },
    onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const place = formatPlace({ place: doctor.duty_hospital, city: doctor.City?.name, Country: doctor.Country }, i18n.language);
  return (
    <Dialog title={t("patient:book.title")} closeTo={closeTo} size="lg">
      <div className="space-y-4">
        <DoctorSummary doctor={doctor} />
        {/* One form: the date booked is the date in the field, whether or not its times were reloaded (docs/forms.md). */}
        <Form method="post" preventScrollReset className="group space-y-4" {...getFormProps(form)} key={`${date}-${d.idempotencyKey}`}>
          <FormAlert message={form.errors?.[0]} />
          <input type="hidden" name="form" value="book" />
          <input type="hidden" name="doctorId" value={doctor.id} />
          <input type="hidden" name="shownDate" value={date} />
          <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
          <div className="flex flex-wrap items-end gap-2">
            <Field
              label={t("patient:book.date")}
              type="date"
              name="date"
              id="book-date"
              min={d.today}
              defaultValue={date}
              required
              errors={fields.date.errors}
              className="min-w-48 flex-1"
              onChange={(e) => {
                // With JavaScript the new day's times load at once.
                const value = e.currentTarget.value;
                if (hydrated && value >= d.today && value !== date) void navigate(withParams(here, { date: value }), { replace: true, preventScrollReset: true });
              }}
            />
            {!hydrated ? (
              <button type="submit" name="intent" value="times" className="btn-secondary" formNoValidate>
                {t("patient:book.showTimes")}
              </button>
            ) : null}
          </div>
          <TypeChoice idPrefix="book" defaultValue={fields.type.initialValue as string | undefined} errors={fields.type.errors} />
          <fieldset aria-describedby={fields.time.errors?.length ? "book-time-error" : undefined}>
            <legend className="label">{t("patient:book.time", { date: formatDate(date, i18n.language) })}</legend>
            <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
            {slots === null ? (
              <p className="text-sm text-red-700">{t("patient:book.slotsFailed")}</p>
            ) : (
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {slots.map((slot) => (
                  <label
                    key={slot.time}
                    className={`flex flex-wrap items-center gap-x-2 rounded-md border px-3 py-2 text-sm ${slot.available ? "cursor-pointer border-slate-300 bg-white has-checked:border-brand-600 has-checked:bg-brand-50" : "border-slate-200 bg-slate-100 text-slate-600 line-through"}`}
                  >
                    <input type="radio" name="time" value={slot.time} disabled={!slot.available} defaultChecked={slot.available && fields.time.initialValue === slot.time} />
                    <span>{slot.time}</span>
                    {slot.available ? null : <span className="no-underline">{t("patient:book.unavailable")}</span>}
                  </label>
                ))}
              </div>
            )}
            <FieldErrors id="book-time-error" errors={fields.time.errors} />
          </fieldset>
          <OnlineDetails fields={fields} className="hidden group-has-[#book-type-online:checked]:block" />
          <div className="hidden rounded-md bg-slate-50 p-3 text-sm group-has-[#book-type-in-person:checked]:block">
            <p className="font-medium text-slate-800">{t("patient:book.inPersonAt")}</p>
            <p className="text-slate-900">{place || t("patient:place.toConfirm")}</p>
          </div>
          <p className="text-sm text-slate-800">
            {t("patient:book.feeLine")} <strong>{formatMoney(doctor.fee, i18n.language)}</strong>
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Link to={closeTo} preventScrollReset className="btn-secondary">
              {t("patient:form.cancel")}
            </Link>
            <SubmitButton>{t("patient:book.submit")}</SubmitButton>
          </div>
        </Form>
      </div>
    </Dialog>
  );
}

function RequestDialog({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const hydrated = useHydrated();
  const closeTo = withParams(location.pathname + location.search, { request: null });
  const onValidate = useLazyValidation(() => import("./appointment-schemas.ts"), (parse, s, formData) => parse(formData, { schema: s.requestSchema(d.today) }));
  const answer = actionData?.form === "request" ? actionData : null;
  const [form, fields] = useForm({
    id: "request",
    lastResult: answer?.result,
    onValidate,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [chosen, setChosen] = useState({ speciality: String(fields.specialityId.initialValue ?? ""), type: String(fields.type.initialValue ?? "") });
  return (
    <Dialog title={t("patient:request.title")} closeTo={closeTo} size="lg">
      <Form
        method="post"
        preventScrollReset
        className="group space-y-4"
        {...getFormProps(form)}
        onChange={(e) => {
          const f = e.currentTarget;
          setChosen({
            speciality: (f.elements.namedItem("specialityId") as HTMLSelectElement).value,
            type: (f.querySelector("input[name=type]:checked") as HTMLInputElement | null)?.value ?? "",
          });
        }}
      >
        <FormAlert message={form.errors?.[0]} />
        <input type="hidden" name="form" value="request" />
        <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
        <SelectField label={t("patient:request.speciality")} {...getSelectProps(fields.specialityId)} errors={fields.specialityId.errors}>
          <option value="">{t("patient:request.chooseSpeciality")}</option>
          {d.specialities.map((s) => (
            <option key={s.id} value={s.id}>
              {specialityName(s, i18n.language)}
            </option>
          ))}
        </SelectField>
        <TypeChoice idPrefix="request" defaultValue={fields.type.initialValue as string | undefined} errors={fields.type.errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label={t("patient:request.date")} {...getInputProps(fields.date, { type: "date" })} min={d.today} required errors={fields.date.errors} />
          <SelectField label={t("patient:request.time")} {...getSelectProps(fields.time)} required errors={fields.time.errors}>
            <option value="">{t("patient:request.chooseTime")}</option>
            {SLOTS.map((slot) => (
              <option key={slot} value={slot}>
                {slot}
              </option>
            ))}
          </SelectField>
          <ClinicTimeZone className="text-xs text-slate-600 sm:col-span-2" />
        </div>
        <OnlineDetails fields={fields} className="hidden group-has-[#request-type-online:checked]:block" />
        <fieldset className="hidden gap-3 group-has-[#request-type-in-person:checked]:grid sm:grid-cols-2">
          <legend className="label">{t("patient:request.inPersonDetails")}</legend>
          <CountryCityFields
            idPrefix="request"
            ns="patient:location"
            countries={d.countries}
            cities={[]}
            reloaded={answer}
            initialCountry={String(fields.countryId.initialValue ?? "")}
            initialCity={String(fields.cityId.initialValue ?? "")}
          />
          <div className="sm:col-span-2">
            <TextAreaField label={t("patient:request.residenceAddress")} {...getTextareaProps(fields.residenceAddress)} rows={2} errors={fields.residenceAddress.errors} />
          </div>
        </fieldset>
        <TextAreaField label={t("patient:request.reason")} {...getTextareaProps(fields.reason)} rows={3} />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={closeTo} preventScrollReset className="btn-secondary">
            {t("patient:form.cancel")}
          </Link>
          {/* With JavaScript the button waits for a speciality and a type; the server checks regardless. */}
          <SubmitButton name="intent" value="submit" disabled={hydrated && (!chosen.speciality || !chosen.type)}>
            {t("patient:request.submit")}
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

export default function FindDoctor({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const list = d.doctors;
  return (
    <section>
      <PageHeader
        title={t("patient:doctors.title")}
        subtitle={t("patient:doctors.welcome", { name: d.username })}
        actions={
          <Link to={withParams(here, { request: "1", book: null, date: null })} preventScrollReset className="btn-primary">
            {t("patient:request.open")}
          </Link>
        }
      />
      <Dashboard d={d.dashboard} />
      <h2 className="mb-2 text-lg font-semibold">{t("patient:doctors.searchTitle")}</h2>
      <DoctorSearch d={d} />
      <p className="mb-2 text-sm text-slate-700" role="status">
        {t(list.totalCapped ? "patient:doctors.foundMoreThan" : "patient:doctors.found", { count: list.total })}
      </p>
      {list.doctors.length === 0 ? (
        <p className="card text-slate-700">{t("patient:doctors.none")}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t("patient:doctors.results")}>
          {list.doctors.map((doctor) => (
            <li key={doctor.id} className="card">
              <DoctorSummary doctor={doctor}>
                <Link
                  to={withParams(here, { book: doctor.id, date: null, request: null })}
                  preventScrollReset
                  className="btn-primary mt-3"
                  aria-label={t("patient:doctors.bookWith", { name: doctor.username })}
                >
                  {t("patient:doctors.book")}
                </Link>
              </DoctorSummary>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={list.page} totalPages={list.totalPages} linkTo={(page) => withParams(here, { page: String(page), book: null, date: null, request: null })} />
      {d.booking ? <BookDialog key={d.booking.doctor.id} d={d} booking={d.booking} actionData={actionData} /> : null}
      {d.requesting ? <RequestDialog d={d} actionData={actionData} /> : null}
    </section>
  );
}
