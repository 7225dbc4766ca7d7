// The doctor's availability (docs/product.md, Availability screens): the working plan (the visit
// length and each weekday's periods of work, shown as the start times they give; the minimum notice
// and the booking horizon), the upcoming appointments the plan no longer offers, and the absences.
// An absence over booked appointments comes back with their list, and can be declared anyway by
// cancelling them.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { afterHydration } from "../../after-hydration.ts";
import type { z } from "zod";
import type { Route } from "./+types/availability";
import { useTranslation } from "../../i18n.ts";
import { upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { formatDate, slotOf } from "../../format.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { PageHeader } from "../../components/page.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { addPeriod, refusalOf, removePeriod } from "../../availability.server.ts";
import { absenceSchema, planBody, planSchema, planValues } from "../../availability-schemas.ts";
import { PeriodConflicts, PeriodForm, PeriodList, usePeriodParts } from "../../components/calendar-periods.tsx";
import type { absenceBody, absenceList, WorkingPlanAnswer, workingPlan } from "../../../contract/availability.ts";
import { WEEKDAYS } from "../../../contract/constants.ts";
import { dayProblem } from "../../../contract/visit-plan.ts";

const PAGE = "/doctor/availability";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const [plan, { absences }] = await Promise.all([
    api.get<WorkingPlanAnswer>("/doctor/working-plan"),
    api.get<z.infer<typeof absenceList>>("/doctor/absences"),
  ]);
  return {
    plan: planValues(plan),
    outsidePlan: plan.outsidePlan,
    absences,
    today: clinicToday(),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "removeAbsence")
    return removePeriod(
      api,
      formData,
      { collection: "/doctor/absences", field: "absenceId", idempotencyKey },
      { page: PAGE, removed: "doctor:availability.absenceRemoved", failed: "doctor:availability.removeFailed" },
    );

  // Appointments in the period: listed, for the doctor to keep them or cancel them (docs/forms.md).
  // Which date the API refused is not said (both are invalid_date): the end date's row holds it.
  if (intent === "absence" || intent === "absenceAnyway")
    return addPeriod(
      api,
      formData,
      absenceSchema(clinicToday()),
      {
        path: "/doctor/absences",
        body: ({ from, to, reason, cancelAppointments }) =>
          ({ from, to, reason, cancelAppointments }) satisfies z.input<typeof absenceBody>,
        idempotencyKey,
      },
      {
        fields: { invalid_date: "to", invalid_period: "to", past_date: "to", invalid_reason: "reason" },
        failed: "doctor:availability.absenceFailed",
      },
      {
        page: PAGE,
        added: "doctor:availability.absenceAdded",
        addedCancelling: "doctor:availability.absenceAddedCancelling",
      },
    );

  // 'Copy Monday' and 'Show the times' answer the form as typed (Monday's rows copied to Tuesday to
  // Friday first), with its errors and times; only 'Save' sends it.
  const sent = intent === "planCopyMonday" ? withMondayCopied(formData) : formData;
  const submission = parseWithZod(sent, { schema: planSchema });
  if (intent === "planCopyMonday" || intent === "planPreview")
    return data({ form: "plan" as const, result: submission.reply() });
  if (submission.status !== "success")
    return data({ form: "plan" as const, result: submission.reply() }, { status: 400 });
  const answer = await api.call("PUT", "/doctor/working-plan", {
    body: planBody(submission.value) satisfies z.input<typeof workingPlan>,
    idempotencyKey,
  });
  if (!answer.ok) {
    // A field the API refused (400) is said beside that field (a day's week: the first day whose
    // starts break the same rule the API checks); anything else above the form.
    const body = planBody(submission.value);
    const day = WEEKDAYS.find((d) => dayProblem(body.week[d], body.visitMinutes));
    const fields = {
      invalid_notice: "minimumNoticeHours",
      invalid_horizon: "bookingHorizonDays",
      invalid_visit_minutes: "visitMinutes",
      ...(day ? { invalid_week: `days.${day}` } : {}),
    };
    const { result } = refusalOf(submission, answer, fields, "doctor:availability.planFailed");
    return data({ form: "plan" as const, result }, { status: answer.status });
  }
  return redirectWithToast(PAGE, { type: "success", message: "doctor:availability.planSaved" });
}

/** The plan form as sent, with Monday's periods in place of Tuesday's to Friday's. */
function withMondayCopied(formData: FormData) {
  const copied = new FormData();
  const copiedTo = /^days\.(tuesday|wednesday|thursday|friday)\[/;
  for (const [name, value] of formData) if (!copiedTo.test(name)) copied.append(name, value);
  for (const [name, value] of formData) {
    if (!name.startsWith("days.monday[")) continue;
    for (const day of ["tuesday", "wednesday", "thursday", "friday"]) copied.append(name.replace("monday", day), value);
  }
  return copied;
}

// A refused absence or removal shows the lists as they are now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

// The plan form (and conform's form state with it) loads after the page is interactive, as the
// absence form does (calendar-periods.tsx): the page rendered on the server shows it as always and
// hydrates it once its module has come.
const loadForms = () => import("./availability-forms.tsx");
const PlanForm = afterHydration(() => loadForms().then((m) => m.PlanForm));
/**
 * The upcoming appointments the saved plan no longer offers: booked under an older plan, they stay
 * (a plan cancels nothing); each links to its reschedule form, for the doctor to move it.
 */
function OutsidePlan({ outside }: { outside: WorkingPlanAnswer["outsidePlan"] }) {
  const { t, i18n } = useTranslation();
  if (!outside.total) return null;
  return (
    <section
      aria-labelledby="outside-plan-title"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3"
    >
      <h3 id="outside-plan-title" className="font-semibold text-slate-900">
        {t("doctor:availability.outsidePlan", { count: outside.total })}
      </h3>
      <p className="text-sm text-slate-800">{t("doctor:availability.outsidePlanHint")}</p>
      <ul className="divide-y divide-amber-200 text-sm" aria-labelledby="outside-plan-title">
        {outside.appointments.map((a) => {
          const when = `${formatDate(a.date, i18n.language)} · ${slotOf(a)}`;
          const patient = a.Patient?.username ?? t("doctor:appointments.unknownPatient");
          return (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="min-w-0 break-words">
                {when} · {patient}
              </span>
              <Link
                to={`/doctor/appointments?appointment=${encodeURIComponent(a.id)}&edit=1`}
                className="btn-secondary"
                aria-label={t("doctor:availability.moveFor", { when, patient })}
              >
                {t("doctor:availability.move")}
              </Link>
            </li>
          );
        })}
      </ul>
      {outside.total > outside.appointments.length ? (
        <p className="text-sm text-slate-800">
          {t("doctor:availability.outsidePlanMore", { count: outside.total - outside.appointments.length })}
        </p>
      ) : null}
    </section>
  );
}

export default function Availability({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  usePeriodParts(loadForms);
  const planResult = actionData?.form === "plan" ? actionData.result : undefined;
  const absence = actionData?.form === "period" ? actionData : null;
  const removal = actionData?.form === "remove" ? actionData : null;
  return (
    <section>
      <PageHeader title={t("doctor:availability.title")} subtitle={t("doctor:availability.subtitle")} />
      <ClinicTimeZone className="mb-4 text-xs text-slate-600" />
      <div className="grid min-w-0 items-start gap-6 2xl:grid-cols-2">
        <section aria-labelledby="plan-title" className="card min-w-0 space-y-4">
          <h2 id="plan-title" className="text-lg font-semibold">
            {t("doctor:availability.planTitle")}
          </h2>
          {/* First: what the saved plan left out is what a doctor who just saved it needs to see. */}
          <OutsidePlan outside={d.outsidePlan} />
          <PlanForm
            // A new form for each answer that changes the values shown (a copy of Monday, a saved plan).
            key={JSON.stringify(planResult?.initialValue ?? d.plan)}
            plan={d.plan}
            result={planResult}
          />
        </section>
        <section aria-labelledby="absences-title" className="card min-w-0 space-y-4">
          <h2 id="absences-title" className="text-lg font-semibold">
            {t("doctor:availability.absencesTitle")}
          </h2>
          <PeriodList
            refusal={removal?.message}
            label={t("doctor:availability.absencesTitle")}
            empty={t("doctor:availability.noAbsences")}
            periods={d.absences.map((a) => {
              const period = t("doctor:availability.period", {
                from: formatDate(a.from, i18n.language),
                to: formatDate(a.to, i18n.language),
              });
              return {
                id: a.id,
                title: period,
                reason: a.reason,
                removeLabel: t("doctor:availability.removeAbsence", { period }),
              };
            })}
            intent="removeAbsence"
            field="absenceId"
            idempotencyKey={d.idempotencyKey}
            remove={t("doctor:availability.remove")}
          />
          <PeriodForm scope="absence" today={d.today} result={absence?.result} />
          <PeriodConflicts
            answer={absence}
            // The refused form's values as sent: the confirmation declares exactly the period listed.
            fields={["from", "to", "reason"]}
            title={(sent, count) =>
              t("doctor:availability.conflicts", {
                count,
                from: formatDate(sent.from, i18n.language),
                to: formatDate(sent.to, i18n.language),
              })
            }
            intent="absenceAnyway"
            idempotencyKey={d.idempotencyKey}
            keepTo={PAGE}
            confirmLabel={(count) => t("doctor:availability.declareAnyway", { count })}
          />
        </section>
      </div>
    </section>
  );
}
