// An appointment as a card: patient, date, time, type and status (and the patient's missed
// appointments of the last 12 months, when there are any), with a link opening its details dialog (a search parameter, so it opens without JavaScript) and optional actions.
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Link } from "react-router";
import { formatDate, specialityName, timeRangeOf } from "../../format.ts";
import { Avatar } from "../avatar.tsx";
import { StatusBadge } from "../status-badge.tsx";
import type { DoctorAppointment as Appointment } from "../../../contract/appointment.ts";

export function patientName(a: { Patient: { username: string } | null }, t: (key: string) => string) {
  return a.Patient?.username ?? t("doctor:appointments.unknownPatient");
}

/** What the card shows of an appointment, and no more (the list page sends its appointments in this shape). */
type Shown = Pick<Appointment, "date" | "time" | "endTime" | "type" | "status" | "patientMissed"> & {
  Patient: Pick<NonNullable<Appointment["Patient"]>, "username" | "avatarUrl"> | null;
  Speciality: { name: string; nameFr?: string | null } | null;
};

export function AppointmentCard({
  appointment: a,
  detailsTo,
  actions,
}: {
  appointment: Shown;
  detailsTo: string;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const name = patientName(a, t);
  return (
    <li className="card flex flex-col gap-3">
      <div className="flex items-start gap-3">
        <Avatar name={name} url={a.Patient?.avatarUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-slate-900">{name}</h2>
          <p className="text-sm text-slate-700">
            {formatDate(a.date, i18n.language)} · {timeRangeOf(a)}
          </p>
          <p className="text-sm text-slate-700">
            {t(`doctor:type.${a.type}`)}
            {a.Speciality ? ` · ${specialityName(a.Speciality, i18n.language)}` : null}
          </p>
        </div>
        <StatusBadge status={a.status} role="doctor" />
      </div>
      {a.patientMissed ? (
        <p className="text-sm font-medium text-slate-900">
          {t("doctor:noShow.patientMissed", { count: a.patientMissed })}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={detailsTo}
          preventScrollReset
          className="btn-secondary"
          aria-label={t("doctor:appointments.detailsFor", { name })}
        >
          {t("doctor:appointments.details")}
        </Link>
        {actions}
      </div>
    </li>
  );
}
