// The bell's page (docs/product.md, The bell): what needs the user's attention, newest first, each
// entry a link to its appointment. The list comes with the page's summary call, which marks the
// entries shown as seen, so the bell's count on this very page already leaves them out.
import { useTranslation } from "../i18n.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/notifications";
import { getUser, requireUser, upstream } from "../auth.server.ts";
import { SubmitButton } from "../components/submit-button.tsx";
import { PageHeader } from "../components/page.tsx";
import { Pagination } from "../components/pagination.tsx";
import { ClinicTimeZone } from "../components/clinic-time-zone.tsx";
import { formatDate, slotOf } from "../format.ts";
import type { Notification } from "../../contract/notification.ts";
import { NOTIFICATIONS_PAGE } from "../notifications.ts";
import { personName } from "../person.ts";
import { requireSummary } from "../summary.server.ts";
import { redirectWithToast } from "../toast.server.ts";

/** Where an entry leads: the appointment's details, in the recipient's own list. */
function appointmentLink(role: "patient" | "doctor", a: Notification["Appointment"]) {
  const id = encodeURIComponent(a.id);
  if (role === "patient")
    return `/health/doctors/my-appointments?tab=${a.assigned ? "assigned" : "open"}&appointment=${id}`;
  return `/doctor/appointments?${a.assigned ? "" : "tab=open&"}appointment=${id}`;
}

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient", "doctor")];

export async function loader({ context }: Route.LoaderArgs) {
  const summary = await requireSummary(context);
  return {
    role: getUser(context).role as "patient" | "doctor",
    list: summary.notifications ?? { items: [], total: 0, page: 1, limit: 20, totalPages: 0 },
    unseen: summary.count,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const idempotencyKey = String((await request.formData()).get("idempotencyKey") ?? "") || undefined;
  const answer = await upstream(request, context).call("POST", "/notification/seen", { idempotencyKey });
  return redirectWithToast(
    NOTIFICATIONS_PAGE,
    answer.ok
      ? { type: "success", message: "common:bell.allSeen" }
      : { type: "error", message: "common:bell.seenFailed" },
  );
}

function Entry({ n, role }: { n: Notification; role: "patient" | "doctor" }) {
  const { t, i18n } = useTranslation();
  const text = t([`common:bell.kinds.${role}.${n.kind}`, "common:bell.kinds.other"], {
    name: personName(n.actorName, t),
    date: formatDate(n.Appointment.date, i18n.language),
    time: slotOf(n.Appointment),
  });
  return (
    <li className={`card flex items-start justify-between gap-3 ${n.new ? "border-brand-600" : ""}`}>
      <Link to={appointmentLink(role, n.Appointment)} className="link min-w-0">
        {text}
      </Link>
      {n.new ? (
        <span className="shrink-0 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
          {t("common:bell.new")}
        </span>
      ) : null}
    </li>
  );
}

export default function Notifications({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="max-w-2xl">
      <PageHeader
        title={t("common:bell.title")}
        subtitle={t("common:bell.unseen", { count: d.unseen })}
        actions={
          d.unseen > 0 ? (
            <Form method="post">
              <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
              <SubmitButton className="btn-secondary">{t("common:bell.markAllSeen")}</SubmitButton>
            </Form>
          ) : null
        }
      />
      {d.list.items.length === 0 ? (
        <p className="card text-slate-700">{t("common:bell.empty")}</p>
      ) : (
        <>
          <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
          <ul aria-label={t("common:bell.title")} className="space-y-2">
            {d.list.items.map((n) => (
              <Entry key={n.id} n={n} role={d.role} />
            ))}
          </ul>
        </>
      )}
      <Pagination
        page={d.list.page}
        totalPages={d.list.totalPages}
        linkTo={(page) => `${NOTIFICATIONS_PAGE}?page=${page}`}
      />
    </section>
  );
}
