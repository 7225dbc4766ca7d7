// Today's schedule in the parts of the day (app/day-parts.ts): the morning and the afternoon always,
// the evening when it holds appointments. Each appointment shows when it starts and ends.
import { useTranslation } from "../../i18n.ts";
import { StatusBadge } from "../status-badge.tsx";
import type { DoctorAppointment as Appointment } from "../../../contract/appointment.ts";
import { slotOf, timeRangeOf } from "../../format.ts";
import { byDayPart } from "../../day-parts.ts";

function splitSessions(appointments: Appointment[]) {
  const sorted = [...appointments].sort((a, b) => a.time.localeCompare(b.time));
  return byDayPart(sorted, slotOf).filter((part) => part.key !== "evening" || part.items.length);
}

export function TodaySchedule({
  appointments,
  headingLevel = 3,
}: {
  appointments: Appointment[];
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="grid gap-4 md:grid-cols-2 print:grid-cols-1">
      {splitSessions(appointments).map((session) => (
        <section key={session.key} aria-labelledby={`session-${session.key}`} className="min-w-0">
          <Heading id={`session-${session.key}`} className="mb-2 font-semibold text-slate-900">
            {t(`doctor:schedule.${session.key}`, { from: session.from, to: session.to })}
          </Heading>
          {session.items.length === 0 ? (
            <p className="text-sm text-slate-700">{t("doctor:schedule.free")}</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
              {session.items.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                  <span className="font-mono font-semibold whitespace-nowrap">{timeRangeOf(a)}</span>
                  <span className="min-w-0 flex-1 truncate">
                    {a.Patient?.username ?? t("doctor:appointments.unknownPatient")}
                  </span>
                  <span className="text-slate-700">{t(`doctor:type.${a.type}`)}</span>
                  <StatusBadge status={a.status} role="doctor" />
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
