// The doctor's availability (docs/product.md, Availability screens): the working plan (which of the
// six slots on which weekdays, the minimum notice and the booking horizon) and the absences. An
// absence over booked appointments comes back with their list, and can be declared anyway by
// cancelling them.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, type ShouldRevalidateFunctionArgs } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/availability";
import { useTranslation } from "../../i18n.ts";
import { upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { formatDate } from "../../format.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { ConflictList } from "../../components/conflict-list.tsx";
import { Field, FieldErrors, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { ActionForm } from "../../components/submit-button.tsx";
import { PageHeader } from "../../components/page.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { conflictsOf, fieldOfRefusal } from "../../availability.server.ts";
import { absenceSchema, type Conflict, planSchema } from "../../availability-schemas.ts";
import type { absenceBody, absenceList, WorkingPlan, workingPlan } from "../../../contract/availability.ts";
import { CALENDAR_REASON_MAX, MAX_HORIZON_DAYS, MAX_NOTICE_HOURS, SLOTS, WEEKDAYS } from "../../../contract/constants.ts";

const PAGE = "/doctor/availability";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const [plan, { absences }] = await Promise.all([api.get<WorkingPlan>("/doctor/working-plan"), api.get<z.infer<typeof absenceList>>("/doctor/absences")]);
  return { plan, absences, today: clinicToday(), idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "removeAbsence") {
    const id = String(formData.get("absenceId") ?? "");
    const answer = await api.call("DELETE", `/doctor/absences/${encodeURIComponent(id)}`, { idempotencyKey });
    if (!answer.ok) return data({ form: "remove" as const, absenceId: id, message: upstreamErrorKey(answer, "availability", "doctor:availability.removeFailed") }, { status: answer.status });
    return redirectWithToast(PAGE, { type: "success", message: "doctor:availability.absenceRemoved" });
  }

  if (intent === "absence" || intent === "absenceAnyway") {
    const submission = parseWithZod(formData, { schema: absenceSchema(clinicToday()) });
    if (submission.status !== "success") return data({ form: "absence" as const, result: submission.reply(), conflicts: null }, { status: 400 });
    const { from, to, reason, cancelAppointments } = submission.value;
    const answer = await api.call("POST", "/doctor/absences", { body: { from, to, reason, cancelAppointments } satisfies z.input<typeof absenceBody>, idempotencyKey });
    if (!answer.ok) {
      // Appointments in the period: listed, for the doctor to keep them or cancel them (docs/forms.md).
      const conflicts = conflictsOf(answer);
      // Which date the API refused is not said (both are invalid_date): the end date's row holds it.
      const field = fieldOfRefusal(answer, { invalid_date: "to", invalid_period: "to", past_date: "to", invalid_reason: "reason" });
      const message = upstreamErrorKey(answer, "availability", "doctor:availability.absenceFailed");
      const result = submission.reply(conflicts ? {} : field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] });
      return data({ form: "absence" as const, result, conflicts }, { status: answer.status });
    }
    return redirectWithToast(PAGE, {
      type: "success",
      message: cancelAppointments ? "doctor:availability.absenceAddedCancelling" : "doctor:availability.absenceAdded",
    });
  }

  const submission = parseWithZod(formData, { schema: planSchema });
  if (submission.status !== "success") return data({ form: "plan" as const, result: submission.reply() }, { status: 400 });
  const answer = await api.call("PUT", "/doctor/working-plan", { body: submission.value satisfies z.input<typeof workingPlan>, idempotencyKey });
  if (!answer.ok) {
    // A field the API refused (400) is said beside that field; anything else above the form.
    const field = fieldOfRefusal(answer, {
      invalid_notice: "minimumNoticeHours",
      invalid_horizon: "bookingHorizonDays",
      invalid_week: "week",
    });
    const message = upstreamErrorKey(answer, "availability", "doctor:availability.planFailed");
    return data({ form: "plan" as const, result: submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }) }, { status: answer.status });
  }
  return redirectWithToast(PAGE, { type: "success", message: "doctor:availability.planSaved" });
}

// A refused absence or removal shows the lists as they are now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

function PlanForm({ plan, result }: { plan: WorkingPlan; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "working-plan",
    lastResult: result,
    defaultValue: plan,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: planSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
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
              <fieldset key={day} className="grid gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[7rem_1fr] sm:items-center">
                <legend className="float-left text-sm font-medium text-slate-800 sm:float-none">{t(`doctor:availability.day.${day}`)}</legend>
                <div className="clear-left grid grid-cols-3 gap-1 sm:clear-none sm:col-start-2 sm:grid-cols-6">
                  {SLOTS.map((slot) => (
                    <label key={slot} className="flex min-h-6 items-center gap-1.5 rounded px-1 text-sm">
                      <input type="checkbox" key={week[day].key} name={week[day].name} value={slot} defaultChecked={offered.has(slot)} className="size-6" />
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

function AbsenceForm({ today, result }: { today: string; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "absence",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: absenceSchema(today) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
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

function AbsenceConflicts({ conflicts, result, idempotencyKey }: { conflicts: Conflict[]; result: SubmissionResult | undefined; idempotencyKey: string }) {
  const { t, i18n } = useTranslation();
  // The refused form's values as sent: the confirmation declares exactly the period listed.
  const sent = (result?.initialValue ?? {}) as Record<string, string | undefined>;
  const values = { from: sent.from ?? "", to: sent.to ?? "", reason: sent.reason ?? "" };
  return (
    <ConflictList
      conflicts={conflicts}
      title={t("doctor:availability.conflicts", { count: conflicts.length, from: formatDate(values.from, i18n.language), to: formatDate(values.to, i18n.language) })}
      intent="absenceAnyway"
      values={values}
      idempotencyKey={idempotencyKey}
      keepTo={PAGE}
      confirmLabel={t("doctor:availability.declareAnyway", { count: conflicts.length })}
    />
  );
}

export default function Availability({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const planResult = actionData?.form === "plan" ? actionData.result : undefined;
  const absence = actionData?.form === "absence" ? actionData : null;
  const removal = actionData?.form === "remove" ? actionData : null;
  return (
    <section>
      <PageHeader title={t("doctor:availability.title")} subtitle={t("doctor:availability.subtitle")} />
      <ClinicTimeZone className="mb-4 text-xs text-slate-600" />
      <div className="grid min-w-0 gap-6 xl:grid-cols-2">
        <section aria-labelledby="plan-title" className="card min-w-0 space-y-4">
          <h2 id="plan-title" className="text-lg font-semibold">
            {t("doctor:availability.planTitle")}
          </h2>
          <PlanForm plan={d.plan} result={planResult} />
        </section>
        <section aria-labelledby="absences-title" className="card min-w-0 space-y-4">
          <h2 id="absences-title" className="text-lg font-semibold">
            {t("doctor:availability.absencesTitle")}
          </h2>
          {removal ? <FormAlert message={removal.message} /> : null}
          {d.absences.length === 0 ? (
            <p className="text-sm text-slate-700">{t("doctor:availability.noAbsences")}</p>
          ) : (
            <ul className="divide-y divide-slate-200" aria-label={t("doctor:availability.absencesTitle")}>
              {d.absences.map((a) => {
                const period = t("doctor:availability.period", { from: formatDate(a.from, i18n.language), to: formatDate(a.to, i18n.language) });
                return (
                  <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium">{period}</p>
                      {a.reason ? <p className="break-words text-slate-700">{a.reason}</p> : null}
                    </div>
                    <ActionForm intent="removeAbsence" field="absenceId" id={a.id} idempotencyKey={`${d.idempotencyKey}-${a.id}`} className="btn-secondary">
                      <span aria-hidden="true">{t("doctor:availability.remove")}</span>
                      <span className="sr-only">{t("doctor:availability.removeAbsence", { period })}</span>
                    </ActionForm>
                  </li>
                );
              })}
            </ul>
          )}
          <AbsenceForm today={d.today} result={absence?.result} />
          {absence?.conflicts?.length ? <AbsenceConflicts conflicts={absence.conflicts} result={absence.result} idempotencyKey={d.idempotencyKey} /> : null}
        </section>
      </div>
    </section>
  );
}
