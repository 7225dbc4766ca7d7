// 'Buy' on a confirmed appointment: the amount due in XAF and how to
// pay. No online payment provider exists yet, so the patient pays at the clinic's reception.
import { useTranslation } from "../../i18n.ts";
import { Link } from "react-router";
import type { Route } from "./+types/payment";
import { upstream } from "../../auth.server.ts";
import { PageHeader } from "../../components/page.tsx";
import { placeOf } from "../../patient-rules.ts";
import { formatDate, formatMoney } from "../../format.ts";
import { StatusBadge } from "../../components/status-badge.tsx";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import { slotOf } from "../../format.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const appointment = await upstream(request, context).get<PatientAppointment>(
    `/appointment/${encodeURIComponent(params.appointmentId)}`,
  );
  // Computed here so server and browser agree: a started appointment is no longer paid for here.
  return { appointment, started: Date.parse(appointment.time) <= Date.now() };
}

export default function Payment({ loaderData: { appointment: a, started } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const payable = !started && a.status === "confirmed" && a.price != null;
  return (
    <section className="max-w-2xl">
      <PageHeader title={t("patient:payment.title")} />
      <div className="card space-y-3">
        <div className="flex items-start justify-between gap-3">
          <div>
            <h2 className="font-semibold text-slate-900">
              {a.Doctor
                ? t("patient:doctors.drName", { name: a.Doctor.username })
                : t("patient:appointments.noDoctorYet")}
            </h2>
            <p className="text-sm text-slate-700">
              {formatDate(a.date, i18n.language)} · {slotOf(a)} · {placeOf(a, t, i18n.language)}
            </p>
            <ClinicTimeZone />
          </div>
          <StatusBadge status={a.status} role="patient" />
        </div>
        {payable ? (
          <>
            <p className="text-lg">
              {t("patient:payment.amountDue")} <strong>{formatMoney(a.price!, i18n.language)}</strong>
            </p>
            <h2 className="font-semibold">{t("patient:payment.howTitle")}</h2>
            <ol className="list-decimal space-y-1 pl-5 text-slate-800">
              <li>{t("patient:payment.step1")}</li>
              <li>{t("patient:payment.step2")}</li>
              <li>{t("patient:payment.step3")}</li>
            </ol>
            <p className="text-sm text-slate-700">{t("patient:payment.noOnline")}</p>
          </>
        ) : (
          <p className="text-slate-800">{t("patient:payment.notPayable")}</p>
        )}
      </div>
      <Link to="/health/doctors/my-appointments?tab=assigned" className="link mt-4 inline-block">
        {t("patient:payment.back")}
      </Link>
    </section>
  );
}
