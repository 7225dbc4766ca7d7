// The Availability page's two forms (availability.tsx): the working plan's grid and the absence
// form, with conform's form state and the forms' zod schemas. They are loaded after the page is
// interactive, not with it (docs/decisions/0003-first-load-javascript-budget.md): the server renders
// them as always, and without JavaScript they are plain forms.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "../../i18n.ts";
import { Field, FieldErrors, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import type { WorkingPlan } from "../../../contract/availability.ts";
import {
  CALENDAR_REASON_MAX,
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  SLOTS,
  WEEKDAYS,
} from "../../../contract/constants.ts";

// conform's zod parse and the schemas, loaded at the user's first act (components/client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("../../availability-schemas.ts")]);

export function PlanForm({ plan, result }: { plan: WorkingPlan; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "working-plan",
    lastResult: result,
    defaultValue: plan,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.planSchema }),
    ),
  });
  const week = fields.week.getFieldset();
  const weekErrors = [...new Set(Object.values(fields.week.allErrors).flat())];
  const notice = fields.minimumNoticeHours;
  const horizon = fields.bookingHorizonDays;
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="intent" value="plan" />
      <fieldset aria-describedby="week-hint">
        <legend className="label">{t("doctor:availability.week")}</legend>
        <p id="week-hint" className="mb-2 text-xs text-slate-600">
          {t("doctor:availability.weekHint")}
        </p>
        <div className="space-y-2">
          {WEEKDAYS.map((day) => {
            const offered = new Set([week[day].initialValue ?? []].flat());
            return (
              // A row of six slots; on a phone, the morning's three above the afternoon's.
              <fieldset key={day} className="rounded-md border border-slate-200 px-2 pb-2">
                <legend className="px-1 text-sm font-medium text-slate-800">
                  {t(`doctor:availability.day.${day}`)}
                </legend>
                <div className="grid grid-cols-3 gap-x-2 gap-y-1 sm:grid-cols-6">
                  {SLOTS.map((slot) => (
                    <label key={slot} className="flex min-h-6 items-center gap-1 text-sm whitespace-nowrap">
                      <input
                        type="checkbox"
                        key={week[day].key}
                        name={week[day].name}
                        value={slot}
                        defaultChecked={offered.has(slot)}
                        className="size-6"
                      />
                      {slot}
                    </label>
                  ))}
                </div>
              </fieldset>
            );
          })}
        </div>
        <FieldErrors id="week-error" errors={weekErrors} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("doctor:availability.notice")}
          hint={t("doctor:availability.noticeHint")}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_NOTICE_HOURS}
          id={notice.id}
          key={notice.key}
          name={notice.name}
          defaultValue={notice.initialValue}
          errors={notice.errors}
        />
        <Field
          label={t("doctor:availability.horizon")}
          hint={t("doctor:availability.horizonHint")}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_HORIZON_DAYS}
          id={horizon.id}
          key={horizon.key}
          name={horizon.name}
          defaultValue={horizon.initialValue}
          errors={horizon.errors}
        />
      </div>
      <SubmitButton name="intent" value="plan">
        {t("doctor:availability.savePlan")}
      </SubmitButton>
    </Form>
  );
}

export function AbsenceForm({ today, result }: { today: string; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "absence",
    lastResult: result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.absenceSchema(today) }),
    ),
  });
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <h3 className="font-semibold text-slate-900">{t("doctor:availability.addAbsence")}</h3>
      <FormAlert message={form.errors?.[0]} />
      <div className="grid gap-4 sm:grid-cols-2">
        {(["from", "to"] as const).map((name) => (
          <Field
            key={fields[name].key}
            label={t(`doctor:availability.${name}`)}
            type="date"
            // An absence may have begun already; it must not be over (absenceSchema).
            min={name === "to" ? today : undefined}
            id={fields[name].id}
            name={fields[name].name}
            defaultValue={fields[name].initialValue}
            errors={fields[name].errors}
          />
        ))}
      </div>
      <Field
        key={fields.reason.key}
        label={t("doctor:availability.reason")}
        maxLength={CALENDAR_REASON_MAX}
        id={fields.reason.id}
        name={fields.reason.name}
        defaultValue={fields.reason.initialValue}
        errors={fields.reason.errors}
      />
      <SubmitButton name="intent" value="absence">
        {t("doctor:availability.declareAbsence")}
      </SubmitButton>
    </Form>
  );
}
