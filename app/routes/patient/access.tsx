// 'Who saw my data' (docs/product.md, Who saw my data): the reads and changes of the patient's data
// by someone else, newest first: who, in which role, what, and when (in the clinic time zone).
import { useTranslation } from "../../i18n.ts";
import { Link } from "react-router";
import type { Route } from "./+types/access";
import { requireUser, upstream } from "../../auth.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { PageHeader } from "../../components/page.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { personName } from "../../person.ts";
import { formatDate } from "../../format.ts";
import { pageNumber } from "../../url.ts";
import type { AccessEvent, AccessLogPage } from "../../../contract/patient.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  return { log: await upstream(request, context).get<AccessLogPage>("/patient/access-log", { page }) };
}

/** What happened, in words: the action on that kind of data, or the action alone for a kind this screen does not know. */
function whatOf(e: AccessEvent, t: (key: string | string[]) => string) {
  return t([
    `patient:access.what.${e.action}_${e.entity}`,
    `patient:access.what.${e.action}`,
    "patient:access.what.other",
  ]);
}

export default function AccessLog({ loaderData: { log } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <section className="max-w-3xl">
      <PageHeader
        title={t("patient:access.title")}
        subtitle={t("patient:access.intro")}
        actions={
          <Link to="/patient/profile" className="btn-secondary">
            {t("patient:access.back")}
          </Link>
        }
      />
      {log.items.length === 0 ? (
        <p className="card text-slate-700">{t("patient:access.empty")}</p>
      ) : (
        <>
          <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
          <ul aria-label={t("patient:access.title")} className="space-y-2">
            {log.items.map((e) => (
              <li key={e.id} className="card grid gap-1 sm:grid-cols-[1fr_auto] sm:items-start">
                <p>
                  <span className="font-semibold">{personName(e.Actor?.username, t)}</span>
                  {e.Actor?.role ? (
                    <span className="text-slate-700"> · {t(`patient:access.roles.${e.Actor.role}`)}</span>
                  ) : null}
                  <span className="block text-sm text-slate-800">{whatOf(e, t)}</span>
                </p>
                <p className="text-sm text-slate-700">
                  {formatDate(e.date, i18n.language)} · {e.time}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pagination
        page={log.page}
        totalPages={log.totalPages}
        linkTo={(page) => `/patient/profile/access?page=${page}`}
      />
    </section>
  );
}
