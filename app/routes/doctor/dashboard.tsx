// The doctor's dashboard (docs/product.md, Screens and routes): welcome, four counters, quick actions and today's
// schedule by session, with a link to a print-friendly version of the schedule.
import { useTranslation } from "../../i18n.ts";
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { getUser, upstream } from "../../auth.server.ts";
import { TodaySchedule } from "../../components/doctor/schedule.tsx";
import { PageHeader } from "../../components/page.tsx";
import { loadDashboard } from "./dashboard.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  return { username: getUser(context).username, dashboard: await loadDashboard(upstream(request, context)) };
}

const counters = ["todayAppointments", "upcomingAppointments", "totalPatients", "completedToday"] as const;

export default function DoctorDashboard({ loaderData: { username, dashboard } }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeader title={t("doctor:dashboard.title")} subtitle={t("doctor:dashboard.welcome", { name: username })} />
      <ul className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {counters.map((key) => (
          <li key={key} className="card">
            <p className="text-sm text-slate-700">{t(`doctor:dashboard.${key}`)}</p>
            <p className="text-3xl font-bold text-brand-700">{dashboard[key] ?? 0}</p>
          </li>
        ))}
      </ul>
      <div className="mb-6 flex flex-wrap gap-2">
        <h2 className="sr-only">{t("doctor:dashboard.quickActions")}</h2>
        <Link to="/doctor/appointments" className="btn-primary">
          {t("doctor:dashboard.viewSchedule")}
        </Link>
        <Link to="/doctor/consultations" className="btn-secondary">
          {t("doctor:dashboard.patientRecords")}
        </Link>
      </div>
      <div className="card">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t("doctor:dashboard.todaySchedule")}</h2>
          <Link to="/doctor/schedule/print" className="link py-0.5 text-sm" reloadDocument>
            {t("doctor:dashboard.print")}
          </Link>
        </div>
        <ClinicTimeZone className="mb-3 text-xs text-slate-600" />
        <TodaySchedule appointments={dashboard.todaySchedule ?? []} />
      </div>
    </section>
  );
}
