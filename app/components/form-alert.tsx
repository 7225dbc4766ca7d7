// A form-level message in its own file: the pages that show one without any field (a code gate, a
// refused action's note) load it without forms.tsx's fields (docs/decisions/0003-first-load-javascript-budget.md).
import { useTranslation } from "../i18n.ts";

/** A form-level message (e.g. 'Login failed'), announced to screen readers. */
export function FormAlert({
  message,
  values,
  tone = "error",
  className = "",
}: {
  message?: string | null;
  values?: Record<string, string | number>;
  tone?: "error" | "success" | "info";
  className?: string;
}) {
  const { t } = useTranslation();
  if (!message) return null;
  const style =
    tone === "error"
      ? "border-red-700 bg-red-50 text-red-900"
      : tone === "success"
        ? "border-green-700 bg-green-50 text-green-900"
        : "border-brand-600 bg-brand-50 text-brand-800";
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border-l-4 px-4 py-3 text-sm ${style} ${className}`}
    >
      {t(message, values)}
    </div>
  );
}
