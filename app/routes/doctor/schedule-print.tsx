// Print-friendly version of today's schedule: a plain document outside the shared layout.
import { useTranslation } from "../../i18n.ts";
import type { Route } from "./+types/schedule-print";
import { getUser, requireUser, upstream } from "../../auth.server.ts";
import { formatDate } from "../../format.ts";
import { PrintPage } from "../../components/doctor/print-page.tsx";
import { TodaySchedule } from "../../components/doctor/schedule.tsx";
import { clinicToday } from "../../clinic.server.ts";
import { loadDashboard } from "./dashboard.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export const middleware: Route.MiddlewareFunction[] = [requireUser("doctor")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const dashboard = await loadDashboard(upstream(request, context));
  return { username: getUser(context).username, today: clinicToday(), schedule: dashboard.todaySchedule ?? [] };
}

export default function SchedulePrint({ loaderData: d }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <PrintPage
      title={t("doctor:print.scheduleTitle", { date: formatDate(d.today, i18n.language) })}
      hint={t("doctor:print.scheduleHint")}
      backTo="/doctor/dashboard"
    >
      <p className="text-slate-800">{t("doctor:profile.drName", { name: d.username })}</p>
      <ClinicTimeZone className="mb-4 text-sm text-slate-700" />
      <TodaySchedule appointments={d.schedule} headingLevel={2} />
    </PrintPage>
  );
}
