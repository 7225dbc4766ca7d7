// The reschedule form of the appointment dialog (appointments.tsx). It shows only once the doctor
// has chosen to reschedule (?edit=1), so its code, and conform's form state with it, load after the
// page is interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md).
// It offers the start times of the doctor's plan on the day shown (?date=, else the appointment's
// day), in the parts of the day; 'Show the times' (with JavaScript, leaving the date field) shows
// another day's.
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/appointments";
import { formatDate, slotOf } from "../../format.ts";
import { byDayPart } from "../../day-parts.ts";
import { withParams } from "../../url.ts";
import type { DoctorAppointment as Appointment } from "../../../contract/appointment.ts";
import { Field, FormAlert, SelectField, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

type Data = Route.ComponentProps["loaderData"];

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./reschedule-schema.ts")]);

export function RescheduleForm({
  a,
  data,
  closeTo,
  result,
}: {
  a: Appointment;
  data: Data;
  closeTo: string;
  result: SubmissionResult | null | undefined;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const current = { date: a.date, time: slotOf(a) };
  const day = data.rescheduleDay ?? { date: a.date, slots: null };
  const validation = useClientValidation(loadValidation, ([zod, schemas], formData) =>
    zod.parseWithZod(formData, { schema: schemas.rescheduleSchema(data.today) }),
  );
  const [form, fields] = useForm({
    id: `reschedule-${a.id}`,
    lastResult: result,
    defaultValue: {
      date: day.date,
      time: day.date === current.date ? current.time : "",
      currentDate: current.date,
      currentTime: current.time,
    },
    ...validation,
  });
  const [values, setValues] = useState({
    date: String(fields.date.initialValue ?? current.date),
    time: String(fields.time.initialValue ?? current.time),
  });
  const unchanged = values.date === current.date && values.time === current.time;
  const missing = !values.date || !values.time;
  return (
    <Form
      method="post"
      preventScrollReset
      className="space-y-4"
      {...getFormProps(form)}
      onChange={(e) => {
        const f = e.currentTarget;
        setValues({
          date: (f.elements.namedItem("date") as HTMLInputElement).value,
          time: (f.elements.namedItem("time") as HTMLSelectElement).value,
        });
      }}
    >
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="appointmentId" value={a.id} />
      <input type="hidden" name="idempotencyKey" value={data.idempotencyKey} />
      <input {...getInputProps(fields.currentDate, { type: "hidden" })} />
      <input {...getInputProps(fields.currentTime, { type: "hidden" })} />
      <div className="flex flex-wrap items-end gap-2">
        <Field
          label={t("doctor:reschedule.date")}
          {...getInputProps(fields.date, { type: "date" })}
          min={data.today}
          errors={fields.date.errors}
          className="min-w-48 flex-1"
          onBlur={(e) => {
            // With JavaScript the times follow the date once it is left whole.
            const value = e.currentTarget.value;
            if (/^\d{4}-\d{2}-\d{2}$/.test(value) && value >= data.today && value !== day.date)
              void navigate(withParams(location.pathname + location.search, { date: value }), {
                replace: true,
                preventScrollReset: true,
              });
          }}
        />
        {hydrated ? null : (
          <button type="submit" name="intent" value="times" className="btn-secondary" formNoValidate>
            {t("doctor:reschedule.showTimes")}
          </button>
        )}
      </div>
      <SelectField
        label={t("doctor:reschedule.timeOn", { date: formatDate(day.date, i18n.language) })}
        // The time chosen stays chosen when the list follows a new date (an option of both days).
        {...getSelectProps(fields.time)}
        errors={fields.time.errors}
      >
        <option value="">{t("doctor:reschedule.chooseTime")}</option>
        {byDayPart(day.slots ?? [], (slot) => slot.time)
          .filter((part) => part.items.length)
          .map((part) => (
            <optgroup key={part.key} label={t(`patient:book.${part.key}`)}>
              {part.items.map((slot) => {
                // The appointment's own start is taken by itself: it stays the form's first value.
                const own = day.date === current.date && slot.time === current.time;
                return (
                  <option key={slot.time} value={slot.time} disabled={!slot.available && !own}>
                    {own
                      ? t("doctor:reschedule.currentTime", { time: slot.time })
                      : slot.available
                        ? slot.time
                        : `${slot.time} ${t("patient:book.unavailable")}`}
                  </option>
                );
              })}
            </optgroup>
          ))}
      </SelectField>
      {day.slots === null ? (
        <p className="text-sm text-red-700">{t("patient:book.slotsFailed")}</p>
      ) : day.slots.length === 0 ? (
        <p className="text-sm text-slate-700">{t("common:availability.dayNotWorked")}</p>
      ) : null}
      <ClinicTimeZone />
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={closeTo} preventScrollReset className="btn-secondary">
          {t("doctor:reschedule.cancel")}
        </Link>
        {/* With JavaScript the button waits for a changed, complete slot; the server checks regardless. */}
        <SubmitButton name="intent" value="reschedule" disabled={hydrated && (missing || unchanged)}>
          {t("doctor:reschedule.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}
