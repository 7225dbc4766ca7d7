// The question before an appointment is cancelled (?cancel=<id>), the patient's and the doctor's:
// what is cancelled, what it means, then Keep or Cancel. It loads with each list's dialogs, after
// the page is interactive; the page hands it the last try's failure and the confirming form, which
// it renders with the cards' own parts.
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { withParams } from "../url.ts";
import { Dialog } from "./dialog.tsx";

export function CancelDialog({
  title,
  summary,
  warning,
  keepLabel,
  alert,
  confirm,
}: {
  title: string;
  /** Who and when, as the card says it. */
  summary: string;
  warning: string;
  keepLabel: string;
  alert: ReactNode;
  /** The confirming form, or null when the appointment may no longer be cancelled. */
  confirm: ReactNode;
}) {
  const location = useLocation();
  const keep = withParams(location.pathname + location.search, { cancel: null });
  return (
    <Dialog title={title} closeTo={keep}>
      <p className="mb-2 text-slate-900">{summary}</p>
      <p className="mb-4 text-sm text-slate-800">{warning}</p>
      {alert}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Link to={keep} preventScrollReset className="btn-secondary">
          {keepLabel}
        </Link>
        {confirm}
      </div>
    </Dialog>
  );
}
