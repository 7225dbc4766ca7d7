// How many of a patient's appointments, with any doctor, were missed in the last 12 months, as the
// API counts them (docs/product.md, No-shows): on the doctor's appointment cards and dialog, and
// on the consultation cards.
import { useTranslation } from "../../i18n.ts";

export function PatientMissed({ count, className }: { count: number; className: string }) {
  const { t } = useTranslation();
  return <p className={className}>{t("doctor:noShow.patientMissed", { count })}</p>;
}
