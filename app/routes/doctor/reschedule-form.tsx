// The reschedule form of the appointment dialog (appointments.tsx). It shows only once the doctor
// has chosen to reschedule (?edit=1), so its code, and conform's form state with it, load after the
// page is interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md).
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/appointments";
import { slotOf } from "../../format.ts";
import { SLOTS } from "../../../contract/constants.ts";
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
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const current = { date: a.date, time: slotOf(a) };
  const validation = useClientValidation(loadValidation, ([zod, schemas], formData) =>
    zod.parseWithZod(formData, { schema: schemas.rescheduleSchema(data.today) }),
  );
  const [form, fields] = useForm({
    id: `reschedule-${a.id}`,
    lastResult: result,
    defaultValue: { date: current.date, time: current.time, currentDate: current.date, currentTime: current.time },
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
      <Field
        label={t("doctor:reschedule.date")}
        {...getInputProps(fields.date, { type: "date" })}
        min={data.today}
        errors={fields.date.errors}
      />
      <SelectField label={t("doctor:reschedule.time")} {...getSelectProps(fields.time)} errors={fields.time.errors}>
        <option value="">{t("doctor:reschedule.chooseTime")}</option>
        {SLOTS.map((slot) => (
          <option key={slot} value={slot}>
            {slot}
          </option>
        ))}
      </SelectField>
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
