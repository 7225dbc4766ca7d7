// The clinic's time zone next to times a user chooses or reads: slots are the clinic's wall-clock
// times (docs/formatting.md), which a patient in another zone would otherwise misread.
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { loader } from "../root.tsx";
import { formatTimeZone } from "../format.ts";

export function ClinicTimeZone({ className = "text-xs text-slate-600" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const timeZone = useRouteLoaderData<typeof loader>("root")?.timeZone;
  if (!timeZone) return null;
  return <p className={className}>{t("common:clinicTimeZone", { zone: formatTimeZone(timeZone, i18n.language) })}</p>;
}
