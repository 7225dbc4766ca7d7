// Status with colour AND text (docs/product.md, Appointment states: confirmed green, pending yellow, completed blue,
// cancelled red, missed grey), so it reads without colour vision. The text comes from `<role>:status`.
import { useTranslation } from "../i18n.ts";
import type { AppointmentStatus } from "../../contract/constants.ts";

const tones: Record<AppointmentStatus, string> = {
  confirmed: "bg-green-100 text-green-900 ring-green-700",
  pending: "bg-yellow-100 text-yellow-900 ring-yellow-700",
  proposed: "bg-purple-100 text-purple-900 ring-purple-700",
  completed: "bg-blue-100 text-blue-900 ring-blue-700",
  cancelled: "bg-red-100 text-red-900 ring-red-700",
  missed: "bg-slate-200 text-slate-900 ring-slate-700",
};

export function StatusBadge({ status, role }: { status: AppointmentStatus; role: "doctor" | "patient" }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${tones[status] ?? tones.pending}`}
    >
      {t(`${role}:status.${status}`)}
    </span>
  );
}
