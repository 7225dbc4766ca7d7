// The doctor's availability (docs/product.md, Availability screens): the working plan (which of the
// six slots on which weekdays, the minimum notice and the booking horizon) and the absences. An
// absence over booked appointments comes back with their list, and can be declared anyway by
// cancelling them.
import { useEffect } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { afterHydration } from "../../after-hydration.ts";
import type { z } from "zod";
import type { Route } from "./+types/availability";
import { useTranslation } from "../../i18n.ts";
import { upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { formatDate } from "../../format.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { ActionForm } from "../../components/submit-button.tsx";
import { PageHeader } from "../../components/page.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { refusalOf } from "../../availability.server.ts";
import { absenceSchema, type Conflicts, planSchema } from "../../availability-schemas.ts";
import type { absenceBody, absenceList, WorkingPlan, workingPlan } from "../../../contract/availability.ts";

const PAGE = "/doctor/availability";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const [plan, { absences }] = await Promise.all([
    api.get<WorkingPlan>("/doctor/working-plan"),
    api.get<z.infer<typeof absenceList>>("/doctor/absences"),
  ]);
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
    if (!answer.ok)
      return data(
        {
          form: "remove" as const,
          absenceId: id,
          message: upstreamErrorKey(answer, "availability", "doctor:availability.removeFailed"),
        },
        { status: answer.status },
      );
    return redirectWithToast(PAGE, { type: "success", message: "doctor:availability.absenceRemoved" });
  }

  if (intent === "absence" || intent === "absenceAnyway") {
    const submission = parseWithZod(formData, { schema: absenceSchema(clinicToday()) });
    if (submission.status !== "success")
      return data({ form: "absence" as const, result: submission.reply(), conflicts: null }, { status: 400 });
    const { from, to, reason, cancelAppointments } = submission.value;
    const answer = await api.call("POST", "/doctor/absences", {
      body: { from, to, reason, cancelAppointments } satisfies z.input<typeof absenceBody>,
      idempotencyKey,
    });
    if (!answer.ok) {
      // Appointments in the period: listed, for the doctor to keep them or cancel them (docs/forms.md).
      // Which date the API refused is not said (both are invalid_date): the end date's row holds it.
      const fields = { invalid_date: "to", invalid_period: "to", past_date: "to", invalid_reason: "reason" };
      const refused = refusalOf(submission, answer, fields, "doctor:availability.absenceFailed");
      return data({ form: "absence" as const, ...refused }, { status: answer.status });
    }
    return redirectWithToast(PAGE, {
      type: "success",
      message: cancelAppointments ? "doctor:availability.absenceAddedCancelling" : "doctor:availability.absenceAdded",
    });
  }

  const submission = parseWithZod(formData, { schema: planSchema });
  if (submission.status !== "success")
    return data({ form: "plan" as const, result: submission.reply() }, { status: 400 });
  const answer = await api.call("PUT", "/doctor/working-plan", {
    body: submission.value satisfies z.input<typeof workingPlan>,
    idempotencyKey,
  });
  if (!answer.ok) {
    // A field the API refused (400) is said beside that field; anything else above the form.
    const fields = {
      invalid_notice: "minimumNoticeHours",
      invalid_horizon: "bookingHorizonDays",
      invalid_week: "week",
    };
    const { result } = refusalOf(submission, answer, fields, "doctor:availability.planFailed");
    return data({ form: "plan" as const, result }, { status: answer.status });
  }
  return redirectWithToast(PAGE, { type: "success", message: "doctor:availability.planSaved" });
}

// A refused absence or removal shows the lists as they are now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

// The forms (and conform's form state and zod with them) load after the page is interactive: the
// page rendered on the server shows them as always and hydrates them once their module has come.
const loadForms = () => import("./availability-forms.tsx");
const PlanForm = afterHydration(() => loadForms().then((m) => m.PlanForm));
const AbsenceForm = afterHydration(() => loadForms().then((m) => m.AbsenceForm));
// The appointments a refused absence would hit, and a refused removal's note, show only after the
// doctor acted: they load after hydration too (a page rendered with one hydrates once it has come).
const loadConflictList = () => import("../../components/conflict-list.tsx");
const ConflictList = afterHydration(() => loadConflictList().then((m) => m.ConflictList));
const loadFormAlert = () => import("../../components/form-alert.tsx");
const FormAlert = afterHydration(() => loadFormAlert().then((m) => m.FormAlert));

function AbsenceConflicts({
  conflicts,
  result,
  idempotencyKey,
}: {
  conflicts: Conflicts;
  result: SubmissionResult | undefined;
  idempotencyKey: string;
}) {
  const { t, i18n } = useTranslation();
  // The refused form's values as sent: the confirmation declares exactly the period listed.
  const sent = (result?.initialValue ?? {}) as Record<string, string | undefined>;
  const values = { from: sent.from ?? "", to: sent.to ?? "", reason: sent.reason ?? "" };
  return (
    <ConflictList
      conflicts={conflicts}
      title={t("doctor:availability.conflicts", {
        count: conflicts.total,
        from: formatDate(values.from, i18n.language),
        to: formatDate(values.to, i18n.language),
      })}
      intent="absenceAnyway"
      values={values}
      idempotencyKey={idempotencyKey}
      keepTo={PAGE}
      confirmLabel={t("doctor:availability.declareAnyway", { count: conflicts.total })}
    />
  );
}

export default function Availability({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // Fetched now, so the forms hydrate soon; one that fails is tried again when shown (after-hydration.ts).
    loadForms().catch(() => {});
    loadConflictList().catch(() => {});
    loadFormAlert().catch(() => {});
  }, []);
  const planResult = actionData?.form === "plan" ? actionData.result : undefined;
  const absence = actionData?.form === "absence" ? actionData : null;
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
                const period = t("doctor:availability.period", {
                  from: formatDate(a.from, i18n.language),
                  to: formatDate(a.to, i18n.language),
                });
                return (
                  <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium">{period}</p>
                      {a.reason ? <p className="break-words text-slate-700">{a.reason}</p> : null}
                    </div>
                    <ActionForm
                      intent="removeAbsence"
                      field="absenceId"
                      id={a.id}
                      idempotencyKey={`${d.idempotencyKey}-${a.id}`}
                      className="btn-secondary"
                    >
                      <span aria-hidden="true">{t("doctor:availability.remove")}</span>
                      <span className="sr-only">{t("doctor:availability.removeAbsence", { period })}</span>
                    </ActionForm>
                  </li>
                );
              })}
            </ul>
          )}
          <AbsenceForm today={d.today} result={absence?.result} />
          {absence?.conflicts?.list.length ? (
            <AbsenceConflicts conflicts={absence.conflicts} result={absence.result} idempotencyKey={d.idempotencyKey} />
          ) : null}
        </section>
      </div>
    </section>
  );
}
