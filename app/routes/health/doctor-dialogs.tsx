// The book and request dialogs of the find-a-doctor page (doctors.tsx). They are open only when the
// URL says so (?book=…, ?request=1), so their code, and conform's form state with it, load after the
// page is interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md).
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/doctors";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import { bookSchema, requestSchema } from "./appointment-schemas.ts";
import { CountryCityFields } from "../../components/country-city.tsx";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { formatDate, formatMoney, formatPlace, specialityName } from "../../format.ts";
import {
  APPOINTMENT_TYPES,
  CONNECTION_QUALITIES,
  DEVICE_TYPES,
  SLOTS,
  VIDEO_PLATFORMS,
} from "../../../contract/constants.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

function TypeChoice({
  idPrefix,
  defaultValue,
  errors,
}: {
  idPrefix: string;
  defaultValue?: string;
  errors?: string[];
}) {
  const { t } = useTranslation();
  return (
    <fieldset aria-describedby={errors?.length ? `${idPrefix}-type-error` : undefined}>
      <legend className="label">{t("patient:form.type")}</legend>
      <div className="grid grid-cols-2 gap-2">
        {APPOINTMENT_TYPES.map((type) => (
          <label
            key={type}
            className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-600 has-checked:bg-brand-50"
          >
            <input
              type="radio"
              name="type"
              value={type}
              id={`${idPrefix}-type-${type}`}
              defaultChecked={defaultValue === type}
            />
            {t(`patient:type.${type}`)}
          </label>
        ))}
      </div>
      <FieldErrors id={`${idPrefix}-type-error`} errors={errors} />
    </fieldset>
  );
}

type OnlineField = FieldMetadata<string | undefined, Record<string, unknown>, string[]>;

/** One online detail: "Choose…" (none), then each of its values as the language names it. */
function OptionsField<V extends string>({
  label,
  field,
  values,
  text,
}: {
  label: string;
  field: OnlineField;
  values: readonly V[];
  text: (value: V) => string;
}) {
  const { t } = useTranslation();
  return (
    <SelectField label={label} {...getSelectProps(field)}>
      <option value="">{t("patient:form.choose")}</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {text(v)}
        </option>
      ))}
    </SelectField>
  );
}

function OnlineDetails({
  fields,
  className,
}: {
  fields: Record<"deviceType" | "internetQuality" | "videoPreference", OnlineField>;
  className: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={className}>
      <legend className="label">{t("patient:form.onlineDetails")}</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        <OptionsField
          label={t("patient:form.deviceType")}
          field={fields.deviceType}
          values={DEVICE_TYPES}
          text={(v) => t(`patient:form.device.${v}`)}
        />
        <OptionsField
          label={t("patient:form.connection")}
          field={fields.internetQuality}
          values={CONNECTION_QUALITIES}
          text={(v) => t(`patient:form.quality.${v}`)}
        />
        <OptionsField
          label={t("patient:form.platform")}
          field={fields.videoPreference}
          values={VIDEO_PLATFORMS}
          text={(v) => t(`patient:form.video.${v}`)}
        />
      </div>
    </fieldset>
  );
}

/** How long the typing in the book dialog's date field stops before that day's times load. */
const TYPING_PAUSE_MS = 1000;

export function BookDialog({
  d,
  booking: loaded,
  actionData,
}: {
  d: Data;
  booking: NonNullable<Data["booking"]>;
  actionData: ActionData;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, { book: null, date: null });
  // A refused booking made on a newly typed date comes back with that date's slots.
  const booking = (actionData?.form === "book" && actionData.booking) || loaded;
  const { doctor, date, slots } = booking;
  const validation = useClientValidation(
    (formData) => parseWithZod(formData, { schema: bookSchema(d.today) }),
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "book",
    lastResult: actionData?.form === "book" ? actionData.result : undefined,
    defaultValue: { doctorId: doctor.id, date },
    ...validation,
  });
  const place = formatPlace(
    { place: doctor.duty_hospital, city: doctor.City?.name, Country: doctor.Country },
    i18n.language,
  );
  // Each answer to the form (a refusal) rebuilds it as the server renders it, never a new date: a
  // form rebuilt while its date was being typed lost the focus, the rest of the date and the type.
  const [answer, setAnswer] = useState({ to: actionData, count: 0 });
  if (actionData && actionData !== answer.to) setAnswer({ to: actionData, count: answer.count + 1 });
  // With JavaScript the day's times follow the date once it is whole and stable: when the field is
  // left, or after a pause in typing (each key can make another whole date on the way). A time
  // chosen for the day shown is cleared, and the dialog says so (docs/forms.md).
  const [cleared, setCleared] = useState<{ time: string; date: string } | null>(null);
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pause.current), []);
  const showTimes = useRef((_field: HTMLInputElement) => {});
  showTimes.current = (field) => {
    clearTimeout(pause.current);
    const value = field.value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < d.today || value === date) return;
    const chosen = field.form?.querySelector<HTMLInputElement>('input[name="time"]:checked');
    if (chosen) {
      chosen.checked = false;
      setCleared({ time: chosen.value, date });
    }
    void navigate(withParams(here, { date: value }), { replace: true, preventScrollReset: true });
  };
  return (
    <Dialog title={t("patient:book.title")} closeTo={closeTo} size="lg">
      <div className="space-y-4">
        <DoctorSummary doctor={doctor} />
        {/* One form: the date booked is the date in the field, whether or not its times were reloaded (docs/forms.md). */}
        <Form method="post" preventScrollReset className="group space-y-4" {...getFormProps(form)} key={answer.count}>
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
                const field = e.currentTarget;
                clearTimeout(pause.current);
                pause.current = setTimeout(() => showTimes.current(field), TYPING_PAUSE_MS);
              }}
              onBlur={(e) => showTimes.current(e.currentTarget)}
            />
            {!hydrated ? (
              <button type="submit" name="intent" value="times" className="btn-secondary" formNoValidate>
                {t("patient:book.showTimes")}
              </button>
            ) : null}
          </div>
          <TypeChoice
            idPrefix="book"
            defaultValue={fields.type.initialValue as string | undefined}
            errors={fields.type.errors}
          />
          <fieldset aria-describedby={fields.time.errors?.length ? "book-time-error" : undefined}>
            <legend className="label">{t("patient:book.time", { date: formatDate(date, i18n.language) })}</legend>
            <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
            {cleared ? (
              <p role="status" className="mb-2 text-sm font-medium text-slate-900">
                {t("patient:book.timeCleared", { time: cleared.time, date: formatDate(cleared.date, i18n.language) })}
              </p>
            ) : null}
            {slots === null ? (
              <p className="text-sm text-red-700">{t("patient:book.slotsFailed")}</p>
            ) : (
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3" onChange={() => setCleared(null)}>
                {slots.map((slot) => (
                  <label
                    key={slot.time}
                    className={`flex flex-wrap items-center gap-x-2 rounded-md border px-3 py-2 text-sm ${slot.available ? "cursor-pointer border-slate-300 bg-white has-checked:border-brand-600 has-checked:bg-brand-50" : "border-slate-200 bg-slate-100 text-slate-600 line-through"}`}
                  >
                    <input
                      type="radio"
                      name="time"
                      value={slot.time}
                      disabled={!slot.available}
                      defaultChecked={slot.available && fields.time.initialValue === slot.time}
                    />
                    <span>{slot.time}</span>
                    {slot.available ? null : <span className="no-underline">{t("patient:book.unavailable")}</span>}
                  </label>
                ))}
              </div>
            )}
            {slots?.length && !slots.some((slot) => slot.available) ? (
              <p className="mt-2 text-sm text-slate-700">{t("patient:nextSlot.dayFull")}</p>
            ) : null}
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

export function RequestDialog({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const hydrated = useHydrated();
  const closeTo = withParams(location.pathname + location.search, { request: null });
  const validation = useClientValidation((formData) => parseWithZod(formData, { schema: requestSchema(d.today) }));
  const answer = actionData?.form === "request" ? actionData : null;
  const [form, fields] = useForm({
    id: "request",
    lastResult: answer?.result,
    ...validation,
  });
  const [chosen, setChosen] = useState({
    speciality: String(fields.specialityId.initialValue ?? ""),
    type: String(fields.type.initialValue ?? ""),
  });
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
        <SelectField
          label={t("patient:request.speciality")}
          {...getSelectProps(fields.specialityId)}
          errors={fields.specialityId.errors}
        >
          <option value="">{t("patient:request.chooseSpeciality")}</option>
          {d.specialities.map((s) => (
            <option key={s.id} value={s.id}>
              {specialityName(s, i18n.language)}
            </option>
          ))}
        </SelectField>
        <TypeChoice
          idPrefix="request"
          defaultValue={fields.type.initialValue as string | undefined}
          errors={fields.type.errors}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("patient:request.date")}
            {...getInputProps(fields.date, { type: "date" })}
            min={d.today}
            required
            errors={fields.date.errors}
          />
          <SelectField
            label={t("patient:request.time")}
            {...getSelectProps(fields.time)}
            required
            errors={fields.time.errors}
          >
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
            <TextAreaField
              label={t("patient:request.residenceAddress")}
              {...getTextareaProps(fields.residenceAddress)}
              rows={2}
              errors={fields.residenceAddress.errors}
            />
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
