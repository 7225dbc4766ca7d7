// The book dialog: a doctor's slots of one day and the booking form, addressed by the URL
// (?book=<doctorId>&date=…). The patient's find-a-doctor page opens it for themselves, the front desk's
// patients page for a patient (docs/product.md, The front desk); each page gives its own title and
// hidden fields, and its action books. Its code, and conform's form state with it, load after the
// page is interactive (docs/decisions/0003-first-load-javascript-budget.md).
import { getFormProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { formatDate, formatMoney, formatPlace } from "../../format.ts";
import { APPOINTMENT_TYPES, CONNECTION_QUALITIES, DEVICE_TYPES, VIDEO_PLATFORMS } from "../../../contract/constants.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import type { Booking } from "./doctors.server.ts";
import { byDayPart } from "../../day-parts.ts";

/** The book form's answer when the action refused it: its result, and the day's slots when the day changed. */
export interface BookAnswer {
  form: "book";
  result: SubmissionResult<string[]>;
  booking: Booking | null;
}

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./appointment-schemas.ts")]);

export function TypeChoice({
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

export function OnlineDetails({
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
  answer: refused,
  title,
  fields: hidden = {},
  closeParams = [],
}: {
  d: { today: string; idempotencyKey: string };
  booking: Booking;
  answer: BookAnswer | undefined;
  /** The dialog's title when not the patient's own 'Book an appointment'. */
  title?: string;
  /** More hidden fields of the form (the patient a receptionist books for). */
  fields?: Record<string, string>;
  /** More search parameters the dialog's URL holds, removed when it closes. */
  closeParams?: string[];
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, {
    book: null,
    date: null,
    ...Object.fromEntries(closeParams.map((p) => [p, null])),
  });
  // A refused booking made on a newly typed date comes back with that date's slots.
  const booking = refused?.booking || loaded;
  const { doctor, date, slots } = booking;
  const validation = useClientValidation(
    loadValidation,
    ([zod, schemas], formData) => zod.parseWithZod(formData, { schema: schemas.bookSchema(d.today) }),
    "onSubmit",
  );
  const [form, fields] = useForm({
    id: "book",
    lastResult: refused?.result,
    defaultValue: { doctorId: doctor.id, date },
    ...validation,
  });
  const place = formatPlace(
    { place: doctor.duty_hospital, city: doctor.City?.name, Country: doctor.Country },
    i18n.language,
  );
  // Each answer to the form (a refusal) rebuilds it as the server renders it, never a new date: a
  // form rebuilt while its date was being typed lost the focus, the rest of the date and the type.
  const [answer, setAnswer] = useState({ to: refused, count: 0 });
  if (refused && refused !== answer.to) setAnswer({ to: refused, count: answer.count + 1 });
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
    <Dialog title={title ?? t("patient:book.title")} closeTo={closeTo} size="lg">
      <div className="space-y-4">
        <DoctorSummary doctor={doctor} />
        {/* One form: the date booked is the date in the field, whether or not its times were reloaded (docs/forms.md). */}
        <Form method="post" preventScrollReset className="group space-y-4" {...getFormProps(form)} key={answer.count}>
          <FormAlert message={form.errors?.[0]} />
          <input type="hidden" name="form" value="book" />
          <input type="hidden" name="doctorId" value={doctor.id} />
          <input type="hidden" name="shownDate" value={date} />
          <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
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
            ) : slots.length === 0 ? (
              <p className="text-sm text-slate-700">{t("common:availability.dayNotWorked")}</p>
            ) : (
              // The day's starts in its parts (morning, afternoon, evening): forty a day still fit a phone.
              // A start that cannot be booked is struck out, said once above them; its cell is too
              // narrow at 320 px for the word, which only a screen reader reads there.
              <div className="space-y-3" onChange={() => setCleared(null)}>
                {slots.some((slot) => !slot.available) ? (
                  <p className="text-xs text-slate-600">{t("patient:book.struckOut")}</p>
                ) : null}
                {byDayPart(slots, (slot) => slot.time)
                  .filter((part) => part.items.length)
                  .map((part) => (
                    <fieldset key={part.key} className="min-w-0">
                      <legend className="mb-1 text-sm font-medium text-slate-800">
                        {t(`patient:book.${part.key}`)}
                      </legend>
                      <div className="grid grid-cols-3 gap-1.5 sm:grid-cols-4">
                        {part.items.map((slot) => (
                          <label
                            key={slot.time}
                            className={`flex min-w-0 flex-wrap items-center gap-x-1.5 rounded-md border px-2 py-1.5 text-sm ${slot.available ? "cursor-pointer border-slate-300 bg-white has-checked:border-brand-600 has-checked:bg-brand-50" : "border-slate-200 bg-slate-100 text-slate-600"}`}
                          >
                            <input
                              type="radio"
                              name="time"
                              value={slot.time}
                              disabled={!slot.available}
                              defaultChecked={slot.available && fields.time.initialValue === slot.time}
                            />
                            <span className={slot.available ? undefined : "line-through"}>{slot.time}</span>
                            {slot.available ? null : <span className="sr-only">{t("patient:book.unavailable")}</span>}
                          </label>
                        ))}
                      </div>
                    </fieldset>
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
