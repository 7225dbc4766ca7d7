// 'Export PDF': a print-ready page of one consultation; the browser's 'Save as PDF' makes the file
// (docs/decisions/0002-consultation-export-print-page.md).
import { useTranslation } from "../../i18n.ts";
import type { Route } from "./+types/consultation-print";
import { getUser, requireUser, upstream } from "../../auth.server.ts";
import { formatDate } from "../../format.ts";
import { useClinicZone } from "../../components/clinic-time-zone.tsx";
import { PrintPage } from "../../components/doctor/print-page.tsx";
import { getConsultation } from "./consultation.server.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("doctor")];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return {
    doctor: getUser(context).username,
    consultation: await getConsultation(upstream(request, context), params.id),
  };
}

export default function ConsultationPrint({ loaderData: { doctor, consultation: c } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  // A printed record is read later and elsewhere: its time carries the clinic zone.
  const zone = useClinicZone();
  const rows: [string, string][] = [
    [t("doctor:consultations.patient"), c.patientName],
    [t("doctor:print.doctor"), t("doctor:profile.drName", { name: doctor })],
    [t("doctor:print.dateTime"), `${formatDate(c.date, i18n.language)} · ${c.time}${zone ? ` (${zone})` : ""}`],
    [t("doctor:consultations.type"), t(`doctor:consultationType.${c.type}`, { defaultValue: c.type })],
    [t("doctor:consultations.diagnosis"), c.diagnosis],
    [t("doctor:consultations.notes"), c.notes || t("doctor:consultations.none")],
  ];
  return (
    <PrintPage
      title={t("doctor:print.consultationTitle", { name: c.patientName })}
      hint={t("doctor:print.consultationHint")}
      backTo="/doctor/consultations"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="whitespace-pre-line">{value}</dd>
          </div>
        ))}
      </dl>
      <h2 className="mt-6 mb-2 text-lg font-semibold">{t("doctor:consultations.prescription")}</h2>
      {c.prescription.length ? (
        <ol className="list-decimal pl-6">
          {c.prescription.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list printed once; two lines may be equal
            <li key={i}>{item}</li>
          ))}
        </ol>
      ) : (
        <p>{t("doctor:consultations.none")}</p>
      )}
    </PrintPage>
  );
}
