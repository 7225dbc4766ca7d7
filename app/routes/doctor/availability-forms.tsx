// The Availability page's working plan form (availability.tsx; the absence form is
// components/period-form.tsx), with conform's form state and the form's zod schema. It is loaded
// after the page is interactive, not with it (docs/decisions/0003-first-load-javascript-budget.md):
// the server renders it as always, and without JavaScript it is a plain form.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { Form } from "react-router";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Field, FieldErrors, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import type { planValues } from "../../availability-schemas.ts";
import { MAX_PERIODS, type PeriodValue, startsOfDay } from "../../plan-periods.ts";
import {
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  PLAN_GRID_MINUTES,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  WEEKDAYS,
  type Weekday,
} from "../../../contract/constants.ts";

// conform's zod parse and the schemas, loaded at the user's first act (components/client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("../../availability-schemas.ts")]);

/** The form's values of the plan: the saved one, or the one last sent (a preview, a copy of Monday, a refusal). */
type PlanValues = ReturnType<typeof planValues>;

/** Each day's periods as typed, read from the form (the live preview's source with JavaScript). */
function periodsIn(form: HTMLFormElement): Record<Weekday, PeriodValue[]> {
  const data = new FormData(form);
  return Object.fromEntries(
    WEEKDAYS.map((day) => [
      day,
      Array.from({ length: MAX_PERIODS }, (_, i) => ({
        from: String(data.get(`days.${day}[${i}].from`) ?? ""),
        to: String(data.get(`days.${day}[${i}].to`) ?? ""),
      })),
    ]),
  ) as Record<Weekday, PeriodValue[]>;
}

const periodsOfValue = (value: unknown): PeriodValue[] =>
  Array.isArray(value) ? value.map((p) => ({ from: p?.from ?? "", to: p?.to ?? "" })) : [];

export function PlanForm({ plan, result }: { plan: PlanValues; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const validation = useClientValidation(loadValidation, ([zod, schemas], formData) =>
    zod.parseWithZod(formData, { schema: schemas.planSchema }),
  );
  const [form, fields] = useForm({ id: "working-plan", lastResult: result, defaultValue: plan, ...validation });
  useFocusOnRefusal(form.id, result);
  const initial = (form.initialValue ?? {}) as { days?: Partial<Record<Weekday, unknown>>; visitMinutes?: unknown };
  const initialDays = Object.fromEntries(WEEKDAYS.map((day) => [day, periodsOfValue(initial.days?.[day])])) as Record<
    Weekday,
    PeriodValue[]
  >;
  // The start times each day's periods give: those of the values shown, then, with JavaScript, of
  // the values as they are typed.
  const [typed, setTyped] = useState({ days: initialDays, visitMinutes: Number(initial.visitMinutes) });
  const errors = form.allErrors;
  const visit = fields.visitMinutes;
  const notice = fields.minimumNoticeHours;
  const horizon = fields.bookingHorizonDays;
  return (
    <Form
      method="post"
      preventScrollReset
      className="space-y-4"
      {...getFormProps(form)}
      onChange={(e) =>
        setTyped({
          days: periodsIn(e.currentTarget),
          visitMinutes: Number((e.currentTarget.elements.namedItem("visitMinutes") as HTMLInputElement).value),
        })
      }
    >
      <FormAlert message={form.errors?.[0]} />
      <Field
        label={t("doctor:availability.visitMinutes")}
        hint={t("doctor:availability.visitMinutesHint")}
        type="number"
        inputMode="numeric"
        min={VISIT_MINUTES_MIN}
        max={VISIT_MINUTES_MAX}
        step={PLAN_GRID_MINUTES}
        id={visit.id}
        key={visit.key}
        name={visit.name}
        defaultValue={visit.initialValue}
        errors={visit.errors}
        className="max-w-xs"
      />
      <fieldset aria-describedby="week-hint">
        <legend className="label">{t("doctor:availability.week")}</legend>
        <p id="week-hint" className="mb-2 text-xs text-slate-600">
          {t("doctor:availability.weekHint")}
        </p>
        <div className="space-y-2">
          {WEEKDAYS.map((day) => (
            <DayPeriods
              key={day}
              day={day}
              shown={initialDays[day]}
              typed={typed.days[day]}
              visitMinutes={typed.visitMinutes}
              errors={errors}
            />
          ))}
        </div>
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
      {/* Save first: the Enter key sends a form with its first button. */}
      <div className="flex flex-wrap gap-2">
        <SubmitButton name="intent" value="plan">
          {t("doctor:availability.savePlan")}
        </SubmitButton>
        {hydrated ? null : (
          // Without JavaScript the times follow the periods once this is pressed; with it, as they are typed.
          <SubmitButton name="intent" value="planPreview" className="btn-secondary">
            {t("doctor:availability.showTimes")}
          </SubmitButton>
        )}
        <SubmitButton name="intent" value="planCopyMonday" className="btn-secondary" formNoValidate>
          {t("doctor:availability.copyMonday")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * One weekday: its periods (the rows shown, and one empty row to add another), the errors of each,
 * and the start times they give. Leaving both ends of a row empty removes that period.
 */
function DayPeriods({
  day,
  shown,
  typed,
  visitMinutes,
  errors,
}: {
  day: Weekday;
  shown: PeriodValue[];
  typed: PeriodValue[];
  visitMinutes: number;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  const dayName = t(`doctor:availability.day.${day}`);
  const rows = Math.min(MAX_PERIODS, usedRows(shown) + 1);
  const starts = startsOfDay(typed, visitMinutes);
  const dayErrors = errors[`days.${day}`];
  return (
    <fieldset
      className="min-w-0 rounded-md border border-slate-200 px-2 pb-2"
      aria-describedby={`preview-${day}${dayErrors?.length ? ` days-${day}-error` : ""}`}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">{dayName}</legend>
      <div className="space-y-2">
        {Array.from({ length: rows }, (_, i) => `days.${day}[${i}]`).map((row, i) => (
          <div key={row} className="grid max-w-md grid-cols-2 gap-2">
            {(["from", "to"] as const).map((end) => {
              const name = `${row}.${end}`;
              const id = `days-${day}-${i}-${end}`;
              const fieldErrors = errors[name];
              return (
                <div key={end} className="min-w-0">
                  <label htmlFor={id} className="text-xs text-slate-700">
                    <span className="sr-only">{t("doctor:availability.periodOf", { day: dayName, n: i + 1 })} </span>
                    {t(`doctor:availability.period${end === "from" ? "From" : "To"}`)}
                  </label>
                  <input
                    id={id}
                    name={name}
                    type="time"
                    className="input"
                    defaultValue={shown[i]?.[end] ?? ""}
                    aria-invalid={fieldErrors?.length ? true : undefined}
                    aria-describedby={fieldErrors?.length ? `${id}-error` : undefined}
                  />
                  <FieldErrors id={`${id}-error`} errors={fieldErrors} />
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <FieldErrors id={`days-${day}-error`} errors={dayErrors} />
      <p id={`preview-${day}`} className="mt-2 text-sm break-words text-slate-700">
        {starts.length
          ? t("doctor:availability.startsPreview", { count: starts.length, times: starts.join(", ") })
          : t("doctor:availability.dayOff")}
      </p>
    </fieldset>
  );
}

/** How many rows of a day hold something (the last one that does, and those before it). */
function usedRows(periods: PeriodValue[]) {
  let last = 0;
  periods.forEach((p, i) => {
    if (p.from || p.to) last = i + 1;
  });
  return last;
}
