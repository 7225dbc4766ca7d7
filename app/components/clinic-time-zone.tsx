// The clinic's time zone next to times a user chooses or reads: slots are the clinic's wall-clock
// times (docs/formatting.md), which a patient in another zone would otherwise misread.
import { useTranslation } from "../i18n.ts";
import { useRouteLoaderData } from "react-router";
import type { loader } from "../root.tsx";

/**
 * 'West Africa Time (UTC+1)' in the reader's language, or null before the root loader answered. The
 * server names it (app/clinic.server.ts), in the page's language, with the root's data.
 */
export function useClinicZone() {
  return useRouteLoaderData<typeof loader>("root")?.clinicZone ?? null;
}

export function ClinicTimeZone({ className = "text-xs text-slate-600" }: { className?: string }) {
  const { t } = useTranslation();
  const zone = useClinicZone();
  return zone ? <p className={className}>{t("common:clinicTimeZone", { zone })}</p> : null;
}
