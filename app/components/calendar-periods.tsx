// What the two pages that close a period of the calendar show alike (docs/product.md, Availability
// screens): the doctor's absences and the admin's closed days, one operation on two scopes. The
// form that adds one (period-form.tsx), the list of periods to come, each with Remove, and the
// appointments a refused period would cancel with the confirmation; the form, the latter and a
// refused removal's note load after hydration (a page rendered with one hydrates once it has come).
import type { SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../after-hydration.ts";
import type { Conflicts } from "../availability-schemas.ts";
import { ActionForm } from "./submit-button.tsx";

const loadPeriodForm = () => import("./period-form.tsx");
export const PeriodForm = afterHydration(() => loadPeriodForm().then((m) => m.PeriodForm));
const loadConflictList = () => import("./conflict-list.tsx");
const ConflictList = afterHydration(() => loadConflictList().then((m) => m.ConflictList));
const loadFormAlert = () => import("./form-alert.tsx");
const FormAlert = afterHydration(() => loadFormAlert().then((m) => m.FormAlert));

/**
 * Fetches now the period form and the page's other forms' module if it has one (`loadForms`, a
 * module-level function), so they hydrate soon, and at the user's first act the parts shown after an
 * action (after-hydration.ts); one that fails is tried again when shown.
 */
export function usePeriodParts(loadForms?: () => Promise<unknown>) {
  useEffect(() => {
    loadPeriodForm().catch(() => {});
    loadForms?.().catch(() => {});
    loadWhenUserActs(loadConflictList);
    loadWhenUserActs(loadFormAlert);
  }, [loadForms]);
}

/**
 * The appointments the refused period holds (`answer`, the action's answer to the period form; none
 * shown when it holds none), and the confirmation that posts the refused form's `fields` again, as
 * sent, with `cancelAppointments`. `title` says how many, from those values and the count.
 */
export function PeriodConflicts({
  answer,
  fields,
  title,
  confirmLabel,
  ...confirm
}: {
  answer: { result: SubmissionResult | undefined; conflicts: Conflicts | null } | null;
  fields: readonly string[];
  title: (values: Record<string, string>, count: number) => string;
  confirmLabel: (count: number) => string;
  intent: string;
  idempotencyKey: string;
  keepTo: string;
}) {
  if (!answer?.conflicts?.list.length) return null;
  const { conflicts, result } = answer;
  const sent = (result?.initialValue ?? {}) as Record<string, string | undefined>;
  const values = Object.fromEntries(fields.map((name) => [name, sent[name] ?? ""]));
  return (
    <ConflictList
      conflicts={conflicts}
      title={title(values, conflicts.total)}
      values={values}
      confirmLabel={confirmLabel(conflicts.total)}
      {...confirm}
    />
  );
}

/**
 * The periods to come, each with its Remove button (`intent`, the id in `field`); `empty` when none.
 * Above them, `refusal`: why the last removal was refused.
 */
export function PeriodList({
  refusal,
  label,
  empty,
  periods,
  intent,
  field,
  idempotencyKey,
  remove,
}: {
  refusal: string | undefined;
  label: string;
  empty: string;
  periods: { id: string; title: string; reason: string | null; removeLabel: string }[];
  intent: string;
  field: string;
  idempotencyKey: string;
  remove: string;
}) {
  const alert = refusal ? <FormAlert message={refusal} /> : null;
  if (periods.length === 0)
    return (
      <>
        {alert}
        <p className="text-sm text-slate-700">{empty}</p>
      </>
    );
  return (
    <>
      {alert}
      <ul className="divide-y divide-slate-200" aria-label={label}>
        {periods.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0 text-sm">
              <p className="font-medium">{p.title}</p>
              {p.reason ? <p className="break-words text-slate-700">{p.reason}</p> : null}
            </div>
            <ActionForm
              intent={intent}
              field={field}
              id={p.id}
              idempotencyKey={`${idempotencyKey}-${p.id}`}
              className="btn-secondary"
            >
              <span aria-hidden="true">{remove}</span>
              <span className="sr-only">{p.removeLabel}</span>
            </ActionForm>
          </li>
        ))}
      </ul>
    </>
  );
}
