// The clinic's closed days (docs/product.md, Availability screens): the days nobody can book, kept
// by the admin. The fixed public holidays are there from the start; the admin adds the moving ones.
// A closed day over booked appointments comes back with their list, and can be added anyway by
// cancelling them.
import { useEffect } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { afterHydration } from "../../after-hydration.ts";
import type { z } from "zod";
import type { Route } from "./+types/closures";
import { useTranslation } from "../../i18n.ts";
import { requireUser, upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { formatDate } from "../../format.ts";
import { ActionForm } from "../../components/submit-button.tsx";
import { PageHeader } from "../../components/page.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { refusalOf } from "../../availability.server.ts";
import { closureSchema, type Conflicts } from "../../availability-schemas.ts";
import type { closureBody, closureList } from "../../../contract/availability.ts";
import { addDays } from "../../../contract/days.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("admin")];

const PAGE = "/admin/closures";

/** The last day of the twelve months from `today` on: the day before the same date a year later. */
function aYearOn(today: string) {
  const [y, m, d] = today.split("-").map(Number);
  return addDays(new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10), -1);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const today = clinicToday();
  // The coming twelve months; the later years (the holidays are written through 2036) when asked.
  const all = new URL(request.url).searchParams.get("years") === "all";
  const path = all ? "/admin/closures" : `/admin/closures?to=${aYearOn(today)}`;
  const { closures, later } = await upstream(request, context).get<z.infer<typeof closureList>>(path);
  return { closures, later, all, today, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "remove") {
    const id = String(formData.get("closureId") ?? "");
    const answer = await api.call("DELETE", `/admin/closures/${encodeURIComponent(id)}`, { idempotencyKey });
    if (!answer.ok)
      return data(
        { form: "remove" as const, message: upstreamErrorKey(answer, "availability", "admin:closures.removeFailed") },
        { status: answer.status },
      );
    // Back to the list as it was shown: the coming year, or every year.
    const all = new URL(request.url).searchParams.get("years") === "all";
    return redirectWithToast(all ? `${PAGE}?years=all` : PAGE, { type: "success", message: "admin:closures.removed" });
  }

  const submission = parseWithZod(formData, { schema: closureSchema(clinicToday()) });
  if (submission.status !== "success")
    return data({ form: "closure" as const, result: submission.reply(), conflicts: null }, { status: 400 });
  const { date, reason, cancelAppointments } = submission.value;
  const answer = await api.call("POST", "/admin/closures", {
    body: { date, reason, cancelAppointments } satisfies z.input<typeof closureBody>,
    idempotencyKey,
  });
  if (!answer.ok) {
    // Appointments on that day: listed, for the admin to keep them or cancel them (docs/forms.md).
    const fields = { invalid_date: "date", past_date: "date", closure_exists: "date", invalid_reason: "reason" };
    const refused = refusalOf(submission, answer, fields, "admin:closures.addFailed");
    return data({ form: "closure" as const, ...refused }, { status: answer.status });
  }
  return redirectWithToast(PAGE, {
    type: "success",
    message: cancelAppointments ? "admin:closures.addedCancelling" : "admin:closures.added",
  });
}

// A refused addition or removal shows the list as it is now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

// The form (and conform's form state and zod with it) loads after the page is interactive: the page
// rendered on the server shows it as always and hydrates it once its module has come.
const loadForm = () => import("./closure-form.tsx");
const ClosureForm = afterHydration(() => loadForm().then((m) => m.ClosureForm));
// The appointments a refused closed day would hit, and a refused removal's note, show only after the
// admin acted: they load after hydration too (a page rendered with one hydrates once it has come).
const loadConflictList = () => import("../../components/conflict-list.tsx");
const ConflictList = afterHydration(() => loadConflictList().then((m) => m.ConflictList));
const loadFormAlert = () => import("../../components/form-alert.tsx");
const FormAlert = afterHydration(() => loadFormAlert().then((m) => m.FormAlert));

function ClosureConflicts({
  conflicts,
  result,
  idempotencyKey,
}: {
  conflicts: Conflicts;
  result: SubmissionResult | undefined;
  idempotencyKey: string;
}) {
  const { t, i18n } = useTranslation();
  // The refused form's values as sent: the confirmation closes exactly the day listed.
  const sent = (result?.initialValue ?? {}) as Record<string, string | undefined>;
  const values = { date: sent.date ?? "", reason: sent.reason ?? "" };
  return (
    <ConflictList
      conflicts={conflicts}
      title={t("admin:closures.conflicts", { count: conflicts.total, day: formatDate(values.date, i18n.language) })}
      intent="closureAnyway"
      values={values}
      idempotencyKey={idempotencyKey}
      keepTo={PAGE}
      confirmLabel={t("admin:closures.addAnyway", { count: conflicts.total })}
    />
  );
}

export default function Closures({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // Fetched now, so the form hydrates soon; one that fails is tried again when shown (after-hydration.ts).
    loadForm().catch(() => {});
    loadConflictList().catch(() => {});
    loadFormAlert().catch(() => {});
  }, []);
  const closure = actionData?.form === "closure" ? actionData : null;
  const removal = actionData?.form === "remove" ? actionData : null;
  return (
    <section>
      <PageHeader title={t("admin:closures.title")} subtitle={t("admin:closures.subtitle")} />
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
        <section className="card min-w-0 space-y-4">
          <ClosureForm today={d.today} result={closure?.result} />
          {closure?.conflicts?.list.length ? (
            <ClosureConflicts conflicts={closure.conflicts} result={closure.result} idempotencyKey={d.idempotencyKey} />
          ) : null}
        </section>
        <section aria-labelledby="closures-title" className="card min-w-0 space-y-4">
          <h2 id="closures-title" className="text-lg font-semibold">
            {t(d.all ? "admin:closures.listTitle" : "admin:closures.yearTitle")}
          </h2>
          {removal ? <FormAlert message={removal.message} /> : null}
          {d.closures.length === 0 ? (
            <p className="text-sm text-slate-700">{t("admin:closures.empty")}</p>
          ) : (
            <ul
              className="divide-y divide-slate-200"
              aria-label={t(d.all ? "admin:closures.listTitle" : "admin:closures.yearTitle")}
            >
              {d.closures.map((c) => {
                const day = formatDate(c.date, i18n.language);
                // A fixed holiday in the page's language; a day the admin added as they wrote it.
                const reason = c.holiday ? t(`admin:closures.holidays.${c.holiday}`) : c.reason;
                return (
                  <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium">{day}</p>
                      <p className="break-words text-slate-700">{reason}</p>
                    </div>
                    <ActionForm
                      intent="remove"
                      field="closureId"
                      id={c.id}
                      idempotencyKey={`${d.idempotencyKey}-${c.id}`}
                      className="btn-secondary"
                    >
                      <span aria-hidden="true">{t("admin:closures.remove")}</span>
                      <span className="sr-only">{t("admin:closures.removeDay", { day, reason })}</span>
                    </ActionForm>
                  </li>
                );
              })}
            </ul>
          )}
          {d.all ? (
            <Link to={PAGE} className="link-alone text-sm">
              {t("admin:closures.showYear")}
            </Link>
          ) : d.later > 0 ? (
            <Link to={`${PAGE}?years=all`} className="link-alone text-sm">
              {t("admin:closures.showLater", { count: d.later })}
            </Link>
          ) : null}
        </section>
      </div>
    </section>
  );
}
