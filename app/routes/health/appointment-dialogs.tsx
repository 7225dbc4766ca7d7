// The details and cancel dialogs of the patient's appointments page (my-appointments.tsx). They are
// open only when the URL says so (?appointment=…, ?cancel=…), so their code loads after the page is
// interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md).
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Link, useActionData } from "react-router";
import type { Route } from "./+types/my-appointments";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { ActionForm } from "../../components/submit-button.tsx";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { isOpenRequest, placeOf } from "../../patient-rules.ts";
import { formatDate, formatMoney, shownTime, slotOf, specialityName } from "../../format.ts";
import { Pagination } from "../../components/pagination.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { PROPOSAL_PAGE_SIZE } from "../../../contract/constants.ts";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import type { appointmentAction, ListedAppointment } from "./my-appointments.server.ts";
import { AppointmentCalendar } from "../../components/appointment-calendar.tsx";
import { CancelDialog as SharedCancelDialog } from "../../components/cancel-dialog.tsx";

type Data = Route.ComponentProps["loaderData"];

function ProposalsPanel({ d, here }: { d: Data; here: string }) {
  const { t, i18n } = useTranslation();
  // A refused accept is told beside the proposal it concerns, and stays until the next action.
  const answer = useActionData<typeof appointmentAction>();
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
  if (p.items.length === 0 && d.proposalPage === 1)
    return <p className="text-slate-700">{t("patient:proposals.none")}</p>;
  return (
    <>
      <ul className="space-y-3">
        {p.items.map((proposal) => (
          <li key={proposal.id} className="rounded-md border border-slate-200 p-3">
            <DoctorSummary doctor={proposal.Doctor}>
              <p className="mt-1 text-sm text-slate-700">
                {t("patient:proposals.price")}{" "}
                <strong>{formatMoney(proposal.Appointment.price ?? proposal.Doctor.fee, i18n.language)}</strong> ·{" "}
                {proposal.status === "pending" && !proposal.available
                  ? t("patient:proposals.unavailable")
                  : t(`patient:proposals.status.${proposal.status}`)}
              </p>
              {failed?.id === proposal.id ? (
                <p
                  role="alert"
                  className="mt-2 rounded-md border-l-4 border-red-700 bg-red-50 px-3 py-2 text-sm text-red-900"
                >
                  {t(failed.message)}
                </p>
              ) : null}
              {proposal.status === "pending" ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  {proposal.available ? (
                    <ActionForm
                      intent="accept"
                      field="id"
                      id={proposal.id}
                      idempotencyKey={d.idempotencyKey}
                      className="btn-primary"
                    >
                      {t("patient:proposals.accept")}
                    </ActionForm>
                  ) : null}
                  <ActionForm
                    intent="reject"
                    field="id"
                    id={proposal.id}
                    idempotencyKey={d.idempotencyKey}
                    className="btn-secondary"
                  >
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
    [
      t("patient:appointments.doctor"),
      a.Doctor ? t("patient:doctors.drName", { name: a.Doctor.username }) : t("patient:appointments.noDoctorYet"),
    ],
    [t("patient:appointments.date"), formatDate(a.date, i18n.language)],
    [t("patient:appointments.time"), shownTime(a)],
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

/** `title`: the appointment's, as its card says it. */
export function DetailsDialog({ a, title, d, here }: { a: PatientAppointment; title: string; d: Data; here: string }) {
  const { t } = useTranslation();
  const closeTo = withParams(here, { appointment: null, view: null, proposalPage: null });
  const open = isOpenRequest(a);
  const tabs = open
    ? ([
        ["proposals", t("patient:appointments.proposalsCount", { count: a.proposalCount ?? 0 })],
        ["details", t("patient:appointments.detailsTab")],
      ] as const)
    : ([["details", t("patient:appointments.detailsTab")]] as const);
  return (
    <Dialog title={title} closeTo={closeTo} size="lg">
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

/**
 * `title`: the appointment's, as its card says it; `canCancel`: whether it may still be cancelled;
 * `alert`: what went wrong with the patient's last try, said where they act.
 */
export function CancelDialog({
  a,
  title,
  canCancel,
  d,
  alert,
}: {
  a: ListedAppointment;
  title: string;
  canCancel: boolean;
  d: Data;
  alert: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  return (
    <SharedCancelDialog
      title={t("patient:cancel.title")}
      summary={`${title} · ${formatDate(a.date, i18n.language)} · ${slotOf(a)}`}
      warning={t("patient:cancel.warning")}
      keepLabel={t("patient:cancel.keep")}
      alert={alert}
      confirm={
        canCancel ? (
          <ActionForm intent="cancel" field="id" id={a.id} idempotencyKey={d.idempotencyKey} className="btn-danger">
            {t("patient:cancel.confirm")}
          </ActionForm>
        ) : null
      }
    />
  );
}
