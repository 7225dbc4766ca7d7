// The patient's appointments (docs/product.md, Screens and routes): tabs 'Assigned to me' and 'Open requests' as
// links, a GET filter form (500 ms debounce with JavaScript), paging, a details dialog
// (?appointment=<id>) with the doctors' proposals, a cancel confirmation (?cancel=<id>) and Buy.
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { useTranslation } from "../../i18n.ts";
import { Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/my-appointments";
import { pageOf, upstream } from "../../auth.server.ts";
import { withParams } from "../../url.ts";
import { SearchForm } from "../../components/search-form.tsx";
import { PageHeader } from "../../components/page.tsx";
import { isOpenRequest, placeOf } from "../../patient-rules.ts";
import { formatDate, formatMoney, specialityName } from "../../format.ts";
import { Pagination } from "../../components/pagination.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { APPOINTMENT_STATUSES } from "../../../contract/constants.ts";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import { shownTime } from "../../format.ts";
import { appointmentAction, loadAppointments, type Failure, type ListedAppointment } from "./my-appointments.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return { ...(await loadAppointments(upstream(request, context), params)), idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  return appointmentAction(upstream(request, context), await request.formData(), pageOf(request));
}

// A refused action (409) still changes what the page says, e.g. a proposal now unavailable or an
// appointment cancelled meanwhile: read the page again, as it is without JavaScript.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

type Data = Route.ComponentProps["loaderData"];

// A refused action's note shows only after the patient acted: it loads after hydration too, with the
// dialogs (a page rendered with one hydrates once it has come).
const loadFormAlert = () => import("../../components/form-alert.tsx");
const FormAlert = afterHydration(() => loadFormAlert().then((m) => m.FormAlert));

/** The patient's last refused action on this appointment, where they acted (its card or its dialog). */
const failureOn = (failure: Failure | null, id: string) =>
  failure?.appointmentId === id ? <FormAlert message={failure.message} className="w-full" /> : null;

// The details and cancel dialogs load after the page is interactive: a page opened with one in its
// URL renders it on the server as always, and hydrates once the module has arrived (no Suspense
// boundary, so nothing shows a fallback); opening one later finds it loaded, or waits for it on the
// page it was opened from (docs/decisions/0003-first-load-javascript-budget.md).
const loadDialogs = () => import("./appointment-dialogs.tsx");
const DetailsDialog = afterHydration(() => loadDialogs().then((m) => m.DetailsDialog));
const CancelDialog = afterHydration(() => loadDialogs().then((m) => m.CancelDialog));

/** Cancel (and Buy) are for appointments still to come (docs/forms.md). */
const cancellable = (a: Pick<PatientAppointment, "status">, started: boolean) =>
  !started && (a.status === "pending" || a.status === "proposed" || a.status === "confirmed");

/** An appointment's title on its card and in its dialogs: its doctor, or what was requested. */
function titleOf(
  a: { Doctor: { username: string } | null; Speciality: { name: string; nameFr?: string | null } | null },
  t: (key: string, values?: Record<string, unknown>) => string,
  language: string,
) {
  if (a.Doctor) return t("patient:doctors.drName", { name: a.Doctor.username });
  return a.Speciality
    ? t("patient:appointments.requestFor", { speciality: specialityName(a.Speciality, language) })
    : t("patient:appointments.noDoctorYet");
}

/** Buy is for confirmed appointments still to come (docs/forms.md). */
const payable = (a: Pick<PatientAppointment, "status">, started: boolean) => !started && a.status === "confirmed";

function AppointmentItem({
  a,
  here,
  started,
  failure,
}: {
  a: ListedAppointment;
  here: string;
  started: boolean;
  failure: Failure | null;
}) {
  const { t, i18n } = useTranslation();
  const title = titleOf(a, t, i18n.language);
  return (
    <li className="card flex flex-col gap-3">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <p className="text-sm text-slate-700">
            {formatDate(a.date, i18n.language)} · {shownTime(a)} · {t(`patient:type.${a.type}`)}
          </p>
          <p className="text-sm text-slate-700">{placeOf(a, t, i18n.language)}</p>
          {a.price != null ? <p className="text-sm text-slate-700">{formatMoney(a.price, i18n.language)}</p> : null}
        </div>
        <StatusBadge status={a.status} role="patient" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Link
          to={withParams(here, { appointment: a.id, view: null, proposalPage: null, cancel: null })}
          preventScrollReset
          className="btn-secondary"
          // The accessible name starts with the visible label, so voice control finds it.
          aria-label={
            isOpenRequest(a)
              ? t("patient:appointments.proposalsFor", {
                  proposals: t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 }),
                  name: title,
                })
              : t("patient:appointments.detailsFor", { name: title })
          }
        >
          {isOpenRequest(a)
            ? t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 })
            : t("patient:appointments.details")}
        </Link>
        {payable(a, started) ? (
          <Link
            to={`/health/payment/${a.id}`}
            className="btn-primary"
            aria-label={t("patient:appointments.buyFor", { name: title })}
          >
            {t("patient:appointments.buy")}
          </Link>
        ) : null}
        {cancellable(a, started) ? (
          <Link
            to={withParams(here, { cancel: a.id, appointment: null })}
            preventScrollReset
            className="btn-danger"
            aria-label={t("patient:appointments.cancelFor", { name: title })}
          >
            {t("patient:appointments.cancel")}
          </Link>
        ) : null}
        {failureOn(failure, a.id)}
      </div>
    </li>
  );
}

function Filters({ d }: { d: Data }) {
  const { t } = useTranslation();
  const active = Boolean(d.search || d.status);
  return (
    <div className="card mb-4">
      <SearchForm
        label={t("patient:appointments.search")}
        formLabel={t("patient:appointments.filters")}
        applyLabel={t("patient:appointments.apply")}
        placeholder={t("patient:appointments.searchPlaceholder")}
        search={d.search}
        hidden={{ tab: d.tab }}
      >
        <div>
          <label htmlFor="status" className="label">
            {t("patient:appointments.status")}
          </label>
          <select key={d.status} id="status" name="status" className="input" defaultValue={d.status}>
            <option value="">{t("patient:appointments.allStatuses")}</option>
            {APPOINTMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`patient:status.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </SearchForm>
      {active ? (
        <Link to={`?tab=${d.tab}`} className="link mt-2 inline-block text-sm">
          {t("patient:appointments.clearFilters")}
        </Link>
      ) : null}
    </div>
  );
}

export default function MyAppointments({ loaderData: d, actionData }: Route.ComponentProps) {
  const failure: Failure | null = actionData && "failure" in actionData ? actionData.failure : null;
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // Fetched at the user's first act on the page, so it shows at once when opened; one that fails is
    // tried again when shown (after-hydration.ts).
    loadWhenUserActs(loadDialogs);
    loadWhenUserActs(loadFormAlert);
  }, []);
  const location = useLocation();
  const here = location.pathname + location.search;
  const { list, tab } = d;
  return (
    <section>
      <PageHeader
        title={t("patient:appointments.title")}
        actions={
          <>
            <Link
              to={withParams(here, { appointment: null, cancel: null, view: null, proposalPage: null })}
              className="btn-secondary"
            >
              {t("patient:appointments.refresh")}
            </Link>
            <Link to="/health/doctors?request=1" className="btn-primary">
              {t("patient:request.open")}
            </Link>
          </>
        }
      />
      <nav aria-label={t("patient:appointments.tabs")} className="mb-4 flex gap-2 border-b border-slate-200">
        {(["assigned", "open"] as const).map((key) => (
          <Link
            key={key}
            to={`?tab=${key}`}
            aria-current={tab === key ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === key ? "border-brand-600 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"}`}
          >
            {t(`patient:appointments.tab.${key}`)}
          </Link>
        ))}
      </nav>
      <Filters d={d} key={tab} />
      <p className="mb-2 text-sm text-slate-700" role="status">
        {t("patient:appointments.count", { count: list.total })}
      </p>
      <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
      {list.appointments.length === 0 ? (
        <p className="card text-slate-700">
          {t(tab === "open" ? "patient:appointments.emptyOpen" : "patient:appointments.emptyAssigned")}
        </p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t(`patient:appointments.tab.${tab}`)}>
          {list.appointments.map((a) => (
            <AppointmentItem key={a.id} a={a} here={here} started={Boolean(d.started[a.id])} failure={failure} />
          ))}
        </ul>
      )}
      <Pagination
        page={list.page}
        totalPages={list.totalPages}
        linkTo={(page) => withParams(here, { page: String(page), appointment: null, cancel: null })}
      />
      {d.selected ? (
        <DetailsDialog
          key={d.selected.id}
          a={d.selected}
          title={titleOf(d.selected, t, i18n.language)}
          d={d}
          here={here}
        />
      ) : null}
      {d.cancelling ? (
        <CancelDialog
          a={d.cancelling}
          title={titleOf(d.cancelling, t, i18n.language)}
          canCancel={cancellable(d.cancelling, Boolean(d.started[d.cancelling.id]))}
          d={d}
          alert={failureOn(failure, d.cancelling.id)}
        />
      ) : null}
    </section>
  );
}
