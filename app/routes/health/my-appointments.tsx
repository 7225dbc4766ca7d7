// The patient's appointments (docs/product.md, Screens and routes): tabs 'Assigned to me' and 'Open requests' as
// links, a GET filter form (500 ms debounce with JavaScript), paging, a details dialog
// (?appointment=<id>) with the doctors' proposals, a cancel confirmation (?cancel=<id>) and Buy.
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Form, Link, useActionData, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/my-appointments";
import { pageOf, upstream } from "../../auth.server.ts";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { FormAlert, SubmitButton } from "../../components/forms.tsx";
import { SearchForm } from "../../components/search-form.tsx";
import { PageHeader } from "../../components/page.tsx";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { isOpenRequest, placeOf } from "../../patient-rules.ts";
import { formatDate, formatMoney, specialityName } from "../../format.ts";
import { Pagination } from "../../components/pagination.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { APPOINTMENT_STATUSES, PROPOSAL_PAGE_SIZE } from "../../../contract/constants.ts";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import { slotOf } from "../../format.ts";
import { appointmentAction, loadAppointments, type ListedAppointment } from "./my-appointments.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { AppointmentCalendar } from "../../components/appointment-calendar.tsx";

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
type Failure = { appointmentId: string; message: string } | null;

/** The patient's last refused action on this appointment, where they acted. */
const failureOn = (failure: Failure, id: string) => (failure?.appointmentId === id ? <FormAlert message={failure.message} className="w-full" /> : null);

/** Cancel and Buy are for appointments still to come (docs/forms.md). */
const cancellable = (a: Pick<PatientAppointment, "status">, started: boolean) => !started && (a.status === "pending" || a.status === "proposed" || a.status === "confirmed");
const payable = (a: Pick<PatientAppointment, "status">, started: boolean) => !started && a.status === "confirmed";

function ActionForm({ intent, id, idempotencyKey, className, children }: { intent: string; id: string; idempotencyKey: string; className: string; children: ReactNode }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton className={className} name="intent" value={intent}>
        {children}
      </SubmitButton>
    </Form>
  );
}

function titleOf(a: Pick<ListedAppointment, "Doctor" | "Speciality">, t: (key: string, values?: Record<string, unknown>) => string, language: string) {
  if (a.Doctor) return t("patient:doctors.drName", { name: a.Doctor.username });
  return a.Speciality ? t("patient:appointments.requestFor", { speciality: specialityName(a.Speciality, language) }) : t("patient:appointments.noDoctorYet");
}

function AppointmentItem({ a, here, started, failure }: { a: ListedAppointment; here: string; started: boolean; failure: Failure }) {
  const { t, i18n } = useTranslation();
  const title = titleOf(a, t, i18n.language);
  return (
    <li className="card flex flex-col gap-3">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <p className="text-sm text-slate-700">
            {formatDate(a.date, i18n.language)} · {slotOf(a)} · {t(`patient:type.${a.type}`)}
          </p>
          <p className="text-sm text-slate-700">{placeOf(a, t, i18n.language)}</p>
          {a.price != null ? <p className="text-sm text-slate-700">{formatMoney(a.price, i18n.language)}</p> : null}
        </div>
        <StatusBadge status={a.status} role="patient" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={withParams(here, { appointment: a.id, view: null, proposalPage: null, cancel: null })} preventScrollReset className="btn-secondary"
          // The accessible name starts with the visible label, so voice control finds it.
          aria-label={
            isOpenRequest(a)
              ? t("patient:appointments.proposalsFor", { proposals: t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 }), name: title })
              : t("patient:appointments.detailsFor", { name: title })
          }
        >
          {isOpenRequest(a) ? t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 }) : t("patient:appointments.details")}
        </Link>
        {payable(a, started) ? (
          <Link to={`/health/payment/${a.id}`} className="btn-primary" aria-label={t("patient:appointments.buyFor", { name: title })}>
            {t("patient:appointments.buy")}
          </Link>
        ) : null}
        {cancellable(a, started) ? (
          <Link to={withParams(here, { cancel: a.id, appointment: null })} preventScrollReset className="btn-danger" aria-label={t("patient:appointments.cancelFor", { name: title })}>
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

function ProposalsPanel({ d, here }: { d: Data; here: string }) {
  const { t, i18n } = useTranslation();
  // A refused accept is told beside the proposal it concerns, and stays until the next action.
  const answer = useActionData<typeof action>();
  const failed = answer && "proposalError" in answer ? answer.proposalError : undefined;
  const p = d.proposals;
  if (!p) return null;
  if (p.failed) {
    return (
      <div role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 text-sm text-red-900">
        <p className="font-semibold">{t("patient:proposals.loadError")}</p>
        <Link to={here} className="link mt-2 inline-block">
          {t("patient:proposals.tryAgain")}
        </Link>
      </div>
    );
  }
  if (p.items.length === 0 && d.proposalPage === 1) return <p className="text-slate-700">{t("patient:proposals.none")}</p>;
  return (
    <>
      <ul className="space-y-3">
        {p.items.map((proposal) => (
          <li key={proposal.id} className="rounded-md border border-slate-200 p-3">
            <DoctorSummary doctor={proposal.Doctor}>
              <p className="mt-1 text-sm text-slate-700">
                {t("patient:proposals.price")} <strong>{formatMoney(proposal.Appointment.price ?? proposal.Doctor.fee, i18n.language)}</strong> ·{" "}
                {proposal.status === "pending" && !proposal.available ? t("patient:proposals.unavailable") : t(`patient:proposals.status.${proposal.status}`)}
              </p>
              {failed?.id === proposal.id ? (
                <p role="alert" className="mt-2 rounded-md border-l-4 border-red-700 bg-red-50 px-3 py-2 text-sm text-red-900">
                  {t(failed.message)}
                </p>
              ) : null}
              {proposal.status === "pending" ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  {proposal.available ? (
                    <ActionForm intent="accept" id={proposal.id} idempotencyKey={d.idempotencyKey} className="btn-primary">
                      {t("patient:proposals.accept")}
                    </ActionForm>
                  ) : null}
                  <ActionForm intent="reject" id={proposal.id} idempotencyKey={d.idempotencyKey} className="btn-secondary">
                    {t("patient:proposals.reject")}
                  </ActionForm>
                </div>
              ) : null}
            </DoctorSummary>
          </li>
        ))}
      </ul>
      {/* The API gives no total in the body: a full page means there may be another. */}
      <Pagination
        page={d.proposalPage}
        totalPages={p.items.length === PROPOSAL_PAGE_SIZE ? d.proposalPage + 1 : d.proposalPage}
        linkTo={(page) => withParams(here, { proposalPage: String(page) })}
        label={t("patient:proposals.pagination")}
      />
    </>
  );
}

function DetailsPanel({ a }: { a: PatientAppointment }) {
  const { t, i18n } = useTranslation();
  const rows: [string, ReactNode][] = [
    [t("patient:appointments.doctor"), a.Doctor ? t("patient:doctors.drName", { name: a.Doctor.username }) : t("patient:appointments.noDoctorYet")],
    [t("patient:appointments.date"), formatDate(a.date, i18n.language)],
    [t("patient:appointments.time"), slotOf(a)],
    [t("patient:form.type"), t(`patient:type.${a.type}`)],
    // biome-ignore lint/correctness/useJsxKeyInIterable: a [label, value] pair; the rows are keyed by label where rendered
    [t("patient:appointments.status"), <StatusBadge status={a.status} role="patient" />],
    [t("patient:appointments.place"), placeOf(a, t, i18n.language)],
  ];
  if (a.Speciality) rows.push([t("patient:request.speciality"), specialityName(a.Speciality, i18n.language)]);
  if (a.price != null) rows.push([t("patient:appointments.price"), formatMoney(a.price, i18n.language)]);
  if (a.details?.reason) rows.push([t("patient:request.reason"), a.details.reason]);
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-700">{label}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function DetailsDialog({ a, d, here }: { a: PatientAppointment; d: Data; here: string }) {
  const { t, i18n } = useTranslation();
  const closeTo = withParams(here, { appointment: null, view: null, proposalPage: null });
  const open = isOpenRequest(a);
  const tabs = open
    ? ([
        ["proposals", t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 })],
        ["details", t("patient:appointments.detailsTab")],
      ] as const)
    : ([["details", t("patient:appointments.detailsTab")]] as const);
  return (
    <Dialog title={titleOf(a, t, i18n.language)} closeTo={closeTo} size="lg">
      <nav aria-label={t("patient:appointments.dialogTabs")} className="mb-4 flex gap-2 border-b border-slate-200">
        {tabs.map(([key, label]) => (
          <Link
            key={key}
            to={withParams(here, { view: key, proposalPage: null })}
            preventScrollReset
            aria-current={d.view === key ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${d.view === key ? "border-brand-600 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"}`}
          >
            {label}
          </Link>
        ))}
      </nav>
      {d.view === "proposals" ? (
        <ProposalsPanel d={d} here={here} />
      ) : (
        <>
          <DetailsPanel a={a} />
          <AppointmentCalendar appointmentId={a.id} video={d.video} />
        </>
      )}
      <div className="mt-4 flex justify-end">
        <Link to={closeTo} preventScrollReset className="btn-secondary">
          {t("patient:form.close")}
        </Link>
      </div>
    </Dialog>
  );
}

function CancelDialog({ a, d, here, failure }: { a: ListedAppointment; d: Data; here: string; failure: Failure }) {
  const { t, i18n } = useTranslation();
  const keep = withParams(here, { cancel: null });
  return (
    <Dialog title={t("patient:cancel.title")} closeTo={keep}>
      <p className="mb-2 text-slate-900">
        {titleOf(a, t, i18n.language)} · {formatDate(a.date, i18n.language)} · {slotOf(a)}
      </p>
      <p className="mb-4 text-sm text-slate-800">{t("patient:cancel.warning")}</p>
      {failureOn(failure, a.id)}
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={keep} preventScrollReset className="btn-secondary">
          {t("patient:cancel.keep")}
        </Link>
        {cancellable(a, Boolean(d.started[a.id])) ? (
          <ActionForm intent="cancel" id={a.id} idempotencyKey={d.idempotencyKey} className="btn-danger">
            {t("patient:cancel.confirm")}
          </ActionForm>
        ) : null}
      </div>
    </Dialog>
  );
}

export default function MyAppointments({ loaderData: d, actionData }: Route.ComponentProps) {
  const failure: Failure = actionData && "failure" in actionData ? actionData.failure : null;
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const { list, tab } = d;
  return (
    <section>
      <PageHeader
        title={t("patient:appointments.title")}
        actions={
          <>
            <Link to={withParams(here, { appointment: null, cancel: null, view: null, proposalPage: null })} className="btn-secondary">
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
      <Filters d={d} key={`${tab}-${d.search || d.status ? "filtered" : "clear"}`} />
      <p className="mb-2 text-sm text-slate-700" role="status">
        {t("patient:appointments.count", { count: list.total })}
      </p>
      <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
      {list.appointments.length === 0 ? (
        <p className="card text-slate-700">{t(tab === "open" ? "patient:appointments.emptyOpen" : "patient:appointments.emptyAssigned")}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t(`patient:appointments.tab.${tab}`)}>
          {list.appointments.map((a) => (
            <AppointmentItem key={a.id} a={a} here={here} started={Boolean(d.started[a.id])} failure={failure} />
          ))}
        </ul>
      )}
      <Pagination page={list.page} totalPages={list.totalPages} linkTo={(page) => withParams(here, { page: String(page), appointment: null, cancel: null })} />
      {d.selected ? <DetailsDialog key={d.selected.id} a={d.selected} d={d} here={here} /> : null}
      {d.cancelling ? <CancelDialog a={d.cancelling} d={d} here={here} failure={failure} /> : null}
    </section>
  );
}
