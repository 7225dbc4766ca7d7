// The doctor's waiting list (docs/product.md, The front desk): today's patients who have arrived and
// are not yet called in, in the order they are due (a booked patient at their slot, a walk-in at
// their arrival), each with the minutes waited, and 'Call in'. With JavaScript the list reads itself
// again every 30 s.
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/queue";
import { useTranslation } from "../../i18n.ts";
import { upstream } from "../../auth.server.ts";
import { clinicClock } from "../../clinic.server.ts";
import { slotOf } from "../../format.ts";
import { personName } from "../../person.ts";
import { useAutoRefresh } from "../../auto-refresh.ts";
import { PageHeader } from "../../components/page.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ActionForm } from "../../components/submit-button.tsx";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { DoctorQueue } from "../../../contract/reception.ts";

const PAGE = "/doctor/queue";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { queue } = await upstream(request, context).get<DoctorQueue>("/doctor/queue");
  return {
    queue: queue.map((entry) => ({
      id: entry.id,
      name: entry.Patient.username,
      due: entry.walkIn ? null : slotOf(entry),
      arrival: entry.arrivedAt ? clinicClock(entry.arrivedAt) : null,
      waited: entry.waitedMinutes,
      walkIn: entry.walkIn,
    })),
    updatedAt: clinicClock(new Date()),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const id = String(formData.get("appointmentId") ?? "");
  const answer = await upstream(request, context).call("POST", `/doctor/queue/${encodeURIComponent(id)}/start`, {
    idempotencyKey: String(formData.get("idempotencyKey") ?? "") || undefined,
  });
  if (!answer.ok)
    return data(
      { failure: { id, message: upstreamErrorKey(answer, "doctorAppointment", "doctor:queue.failed") } },
      { status: answer.status || 502 },
    );
  return redirectWithToast(PAGE, {
    type: "success",
    message: "doctor:queue.called",
    values: { name: String(formData.get("patientName") ?? "") },
  });
}

// A refused call shows the queue as it is now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

export default function Queue({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  useAutoRefresh();
  const failure = actionData?.failure ?? null;
  return (
    <section>
      <PageHeader title={t("doctor:queue.title")} subtitle={t("doctor:queue.subtitle")} />
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <ClinicTimeZone className="text-xs text-slate-600" />
        <p className="text-xs text-slate-600">{t("doctor:queue.refreshed", { time: d.updatedAt })}</p>
      </div>
      {failure && !d.queue.some((entry) => entry.id === failure.id) ? (
        <FormAlert message={failure.message} className="mb-4" />
      ) : null}
      {d.queue.length === 0 ? (
        <p className="card text-slate-700">{t("doctor:queue.empty")}</p>
      ) : (
        <ol className="space-y-2" aria-label={t("doctor:queue.title")}>
          {d.queue.map((entry) => {
            const name = personName(entry.name, t);
            return (
              <li key={entry.id} className="card flex min-w-0 flex-wrap items-center justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-900">{name}</p>
                  <p className="text-sm text-slate-700">
                    {entry.due ? t("doctor:queue.due", { time: entry.due }) : t("doctor:queue.walkIn")}
                    {entry.arrival ? ` · ${t("doctor:queue.arrived", { time: entry.arrival })}` : null}
                    {" · "}
                    {t("doctor:queue.waited", { count: entry.waited })}
                  </p>
                  {failure?.id === entry.id ? <FormAlert message={failure.message} className="mt-2" /> : null}
                </div>
                <ActionForm
                  intent="start"
                  field="appointmentId"
                  id={entry.id}
                  idempotencyKey={`${d.idempotencyKey}-${entry.id}`}
                  className="btn-primary"
                  values={{ patientName: name }}
                >
                  {t("doctor:queue.callIn")}
                  <span className="sr-only">: {name}</span>
                </ActionForm>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
