// The details and cancel dialogs of the doctor's appointments page (appointments.tsx). They are
// open only when the URL says so (?appointment=…, ?cancel=…), so their code loads after the page is
// interactive instead of with it, and the reschedule form (with conform's form state) after them
// (docs/decisions/0003-first-load-javascript-budget.md).
import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { afterHydration } from "../../after-hydration.ts";
import { CancelDialog as SharedCancelDialog } from "../../components/cancel-dialog.tsx";
import { useTranslation } from "../../i18n.ts";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/appointments";
import { useVerification } from "./verification.ts";
import { Avatar } from "../../components/avatar.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { formatDate, formatMoney, formatPlace, slotOf, specialityName, timeRangeOf } from "../../format.ts";
import { StatusBadge } from "../../components/status-badge.tsx";
import type { DoctorAppointment as Appointment } from "../../../contract/appointment.ts";
import type { ListedAppointment } from "./appointments.server.ts";
import { AppointmentCalendar } from "../../components/appointment-calendar.tsx";

type Data = Route.ComponentProps["loaderData"];

// A page opened with ?edit=1 hydrates once this module and the form's have arrived; the page
// fetches the form's once this module is there.
export const loadRescheduleForm = () => import("./reschedule-form.tsx");
const RescheduleForm = afterHydration(() => loadRescheduleForm().then((m) => m.RescheduleForm));

/**
 * 'Cancel' asks first (?cancel=<id>): what is cancelled, that the patient is told, Keep or Cancel.
 * `name`: the patient's, as the cards say it; `alert` and `confirm`: the last try's failure and the
 * confirming form, rendered by the page with the cards' own parts.
 */
export function CancelDialog({
  a,
  name,
  alert,
  confirm,
}: {
  a: ListedAppointment;
  name: string;
  alert: ReactNode;
  confirm: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  return (
    <SharedCancelDialog
      title={t("doctor:cancel.title")}
      summary={`${name} · ${formatDate(a.date, i18n.language)} · ${slotOf(a)}`}
      warning={t("doctor:cancel.warning")}
      keepLabel={t("doctor:cancel.keep")}
      alert={alert}
      confirm={confirm}
    />
  );
}

/** Everything the patient wrote with the appointment, under the labels of the patient's own form. */
function requestDetails(a: Appointment, t: (key: string) => string): [string, ReactNode][] {
  const d = a.details ?? {};
  const rows: [string, ReactNode][] = [];
  if (d.reason)
    rows.push([
      t("patient:request.reason"),
      <span key="reason" className="whitespace-pre-line break-words">
        {d.reason}
      </span>,
    ]);
  if (d.deviceType) rows.push([t("patient:form.deviceType"), t(`patient:form.device.${d.deviceType}`)]);
  if (d.internetQuality) rows.push([t("patient:form.connection"), t(`patient:form.quality.${d.internetQuality}`)]);
  if (d.videoPreference) rows.push([t("patient:form.platform"), t(`patient:form.video.${d.videoPreference}`)]);
  if (d.residenceAddress)
    rows.push([
      t("doctor:appointments.residenceAddress"),
      <span key="address" className="whitespace-pre-line break-words">
        {d.residenceAddress}
      </span>,
    ]);
  return rows;
}

/** `name`: the patient's, as the cards say it; `actions`: what the doctor may do, the cards' own action forms rendered by the page. */
export function DetailsDialog({
  a,
  name,
  data,
  result,
  actions,
}: {
  a: Appointment;
  name: string;
  data: Data;
  result: SubmissionResult | null | undefined;
  actions: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, { appointment: null, edit: null, date: null });
  const verified = useVerification() === "verified";
  const canReschedule =
    verified &&
    (a.status === "pending" || a.status === "confirmed") &&
    Boolean(a.doctorId) &&
    a.doctorId === data.doctorId;
  const editing = data.editing && canReschedule;
  const rows: [string, ReactNode][] = [
    [t("doctor:appointments.date"), formatDate(a.date, i18n.language)],
    [t("doctor:appointments.time"), timeRangeOf(a)],
    [t("doctor:appointments.type"), t(`doctor:type.${a.type}`)],
    [t("doctor:appointments.status"), <StatusBadge key="status" status={a.status} role="doctor" />],
  ];
  if (a.Speciality) rows.push([t("doctor:appointments.speciality"), specialityName(a.Speciality, i18n.language)]);
  const where = formatPlace(a, i18n.language);
  if (where) rows.push([t("doctor:appointments.place"), where]);
  if (a.price != null) rows.push([t("doctor:appointments.price"), formatMoney(a.price, i18n.language)]);
  rows.push(...requestDetails(a, t));
  return (
    <Dialog title={t(editing ? "doctor:reschedule.title" : "doctor:appointments.detailsTitle")} closeTo={closeTo}>
      <div className="mb-4 flex items-center gap-3">
        <Avatar name={name} url={a.Patient?.avatarUrl} />
        <div>
          <p className="font-semibold text-slate-900">{name}</p>
          {a.patientMissed === null ? null : (
            <p className="text-sm text-slate-700">{t("doctor:noShow.patientMissed", { count: a.patientMissed })}</p>
          )}
        </div>
      </div>
      {editing ? (
        <RescheduleForm a={a} data={data} closeTo={withParams(here, { edit: null, date: null })} result={result} />
      ) : (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-slate-700">{label}</dt>
                <dd className="text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {a.doctorId === data.doctorId ? <AppointmentCalendar appointmentId={a.id} video={data.video} /> : null}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            {actions}
            {canReschedule ? (
              <Link to={withParams(here, { edit: "1" })} preventScrollReset className="btn-secondary">
                {t("doctor:appointments.reschedule")}
              </Link>
            ) : null}
            <Link to={closeTo} preventScrollReset className="btn-secondary">
              {t("common:close")}
            </Link>
          </div>
        </>
      )}
    </Dialog>
  );
}
