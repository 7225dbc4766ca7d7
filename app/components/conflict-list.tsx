// The appointments an absence or a closed day would hit (the API's 409), and the confirmation that
// declares it anyway by cancelling them. Shown where the refused form was, by the doctor's
// availability page and the admin's closed days (docs/forms.md, Destructive actions ask first).
import { Form, Link } from "react-router";
import { useTranslation } from "../i18n.ts";
import { formatDate, slotOf } from "../format.ts";
import { personName } from "../person.ts";
import type { Conflicts } from "../availability-schemas.ts";
import { SubmitButton } from "./submit-button.tsx";

/**
 * `conflicts`: the soonest appointments the API listed, and how many the period holds (the rest is
 * counted under the list). `title`: how many appointments the refused period or day holds, in
 * words; `values`: what the confirmation posts again (the refused form's fields, as sent), with
 * `cancelAppointments`; `intent`: the confirmation's own, so that only its button shows progress;
 * `keepTo`: the page without the list.
 */
export function ConflictList({
  conflicts,
  title,
  intent,
  values,
  idempotencyKey,
  keepTo,
  confirmLabel,
}: {
  conflicts: Conflicts;
  title: string;
  intent: string;
  values: Record<string, string>;
  idempotencyKey: string;
  keepTo: string;
  confirmLabel: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section
      role="alert"
      aria-labelledby="conflicts-title"
      className="space-y-3 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <h3 id="conflicts-title" className="font-semibold">
        {title}
      </h3>
      <ul className="space-y-1" aria-label={t("common:calendarDays.conflictsList")}>
        {conflicts.list.map((c) => (
          <li key={c.id} className="flex flex-wrap gap-x-2 break-words">
            <span className="font-medium">{formatDate(c.date, i18n.language)}</span>
            <span>{slotOf(c)}</span>
            <span>
              {c.doctor
                ? t("common:calendarDays.patientOfDoctor", { patient: personName(c.patient, t), doctor: c.doctor })
                : personName(c.patient, t)}
            </span>
          </li>
        ))}
      </ul>
      {conflicts.total > conflicts.list.length ? (
        <p>{t("common:calendarDays.more", { count: conflicts.total - conflicts.list.length })}</p>
      ) : null}
      <p className="font-semibold">{t("common:calendarDays.cancelWarning", { count: conflicts.total })}</p>
      <Form method="post" preventScrollReset className="flex flex-wrap gap-2">
        <input type="hidden" name="idempotencyKey" value={`${idempotencyKey}-cancel`} />
        {Object.entries(values).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="cancelAppointments" value="on" />
        <SubmitButton className="btn-danger" name="intent" value={intent}>
          {confirmLabel}
        </SubmitButton>
        <Link to={keepTo} preventScrollReset className="btn-secondary">
          {t("common:calendarDays.keepAppointments")}
        </Link>
      </Form>
    </section>
  );
}
