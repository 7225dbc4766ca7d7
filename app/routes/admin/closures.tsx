// The clinic's closed days (docs/product.md, Availability screens): the days nobody can book, kept
// by the admin. The fixed public holidays are there from the start; the admin adds the moving ones.
// A closed day over booked appointments comes back with their list, and can be added anyway by
// cancelling them.
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/closures";
import { useTranslation } from "../../i18n.ts";
import { requireUser, upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { formatDate } from "../../format.ts";
import { PageHeader } from "../../components/page.tsx";
import { addPeriod, removePeriod } from "../../availability.server.ts";
import { closureSchema } from "../../availability-schemas.ts";
import { PeriodConflicts, PeriodForm, PeriodList, usePeriodParts } from "../../components/calendar-periods.tsx";
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
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  // Back to the list as it was shown: the coming year, or every year.
  const page = new URL(request.url).searchParams.get("years") === "all" ? `${PAGE}?years=all` : PAGE;

  if (formData.get("intent") === "remove")
    return removePeriod(
      api,
      formData,
      { collection: "/admin/closures", field: "closureId", idempotencyKey },
      { page, removed: "admin:closures.removed", failed: "admin:closures.removeFailed" },
    );

  // Appointments on that day: listed, for the admin to keep them or cancel them (docs/forms.md).
  return addPeriod(
    api,
    formData,
    closureSchema(clinicToday()),
    {
      path: "/admin/closures",
      body: ({ date, reason, cancelAppointments }) =>
        ({ date, reason, cancelAppointments }) satisfies z.input<typeof closureBody>,
      idempotencyKey,
    },
    {
      fields: { invalid_date: "date", past_date: "date", closure_exists: "date", invalid_reason: "reason" },
      failed: "admin:closures.addFailed",
    },
    { page, added: "admin:closures.added", addedCancelling: "admin:closures.addedCancelling" },
  );
}

// A refused addition or removal shows the list as it is now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

export default function Closures({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  usePeriodParts();
  const closure = actionData?.form === "period" ? actionData : null;
  const removal = actionData?.form === "remove" ? actionData : null;
  const listTitle = t(d.all ? "admin:closures.listTitle" : "admin:closures.yearTitle");
  return (
    <section>
      <PageHeader title={t("admin:closures.title")} subtitle={t("admin:closures.subtitle")} />
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
        <section className="card min-w-0 space-y-4">
          <PeriodForm scope="closure" today={d.today} result={closure?.result} />
          <PeriodConflicts
            answer={closure}
            // The refused form's values as sent: the confirmation closes exactly the day listed.
            fields={["date", "reason"]}
            title={(sent, count) =>
              t("admin:closures.conflicts", {
                count,
                day: formatDate(sent.date, i18n.language),
              })
            }
            intent="closureAnyway"
            idempotencyKey={d.idempotencyKey}
            keepTo={PAGE}
            confirmLabel={(count) => t("admin:closures.addAnyway", { count })}
          />
        </section>
        <section aria-labelledby="closures-title" className="card min-w-0 space-y-4">
          <h2 id="closures-title" className="text-lg font-semibold">
            {listTitle}
          </h2>
          <PeriodList
            refusal={removal?.message}
            label={listTitle}
            empty={t("admin:closures.empty")}
            periods={d.closures.map((c) => {
              const day = formatDate(c.date, i18n.language);
              // A fixed holiday in the page's language; a day the admin added as they wrote it.
              const reason = c.holiday ? t(`admin:closures.holidays.${c.holiday}`) : c.reason;
              return { id: c.id, title: day, reason, removeLabel: t("admin:closures.removeDay", { day, reason }) };
            })}
            intent="remove"
            field="closureId"
            idempotencyKey={d.idempotencyKey}
            remove={t("admin:closures.remove")}
          />
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
