// A form-level message and a submit button that shows progress, apart from the fields (forms.tsx,
// which re-exports them): the list pages' action forms and failure notes need these alone, and the
// fields' code stays out of their first load (docs/decisions/0003-first-load-javascript-budget.md).
import type { ReactNode } from "react";
import { useTranslation } from "../i18n.ts";
import { useNavigation } from "react-router";

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
    tone === "error" ? "border-red-700 bg-red-50 text-red-900" : tone === "success" ? "border-green-700 bg-green-50 text-green-900" : "border-brand-600 bg-brand-50 text-brand-800";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border-l-4 px-4 py-3 text-sm ${style} ${className}`}>
      {t(message, values)}
    </div>
  );
}

/** Submit button that reads 'please wait' with a spinner while its form is being submitted. */
export function SubmitButton({
  children,
  className = "btn-primary",
  name,
  value,
  disabled,
  formAction,
}: {
  children: ReactNode;
  className?: string;
  name?: string;
  value?: string;
  disabled?: boolean;
  formAction?: string;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy =
    navigation.state === "submitting" &&
    (name === undefined || navigation.formData?.get(name) === value) &&
    (formAction === undefined || navigation.formAction === formAction);
  return (
    <button type="submit" className={className} name={name} value={value} disabled={disabled || busy} aria-busy={busy || undefined} formAction={formAction}>
      {busy ? <Spinner /> : null}
      {busy ? <span>{t("common:pleaseWait")}</span> : children}
    </button>
  );
}

function Spinner() {
  return <span aria-hidden="true" className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}
