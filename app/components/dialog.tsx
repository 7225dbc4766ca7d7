// A dialog addressable by URL (docs/layout.md): the page renders it when a search parameter
// names it, so it opens without JavaScript; closing is a link back to the page without it.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "../i18n.ts";
import { Link, useNavigate } from "react-router";

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

export function Dialog({
  title,
  closeTo,
  children,
  size = "md",
}: {
  title: string;
  closeTo: string;
  children: ReactNode;
  size?: "md" | "lg";
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const close = useRef(closeTo);
  close.current = closeTo;
  // With JavaScript the dialog is modal (docs/layout.md): focus moves in, Tab and Shift+Tab cycle
  // inside it, Escape closes it, and the focus goes back to what opened it when it closes.
  useEffect(() => {
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") void navigate(close.current, { preventScrollReset: true });
      if (e.key !== "Tab" || !panel.current) return;
      const inside = [...panel.current.querySelectorAll<HTMLElement>(focusable)].filter(
        (el) => el.getClientRects().length > 0,
      );
      const first = inside[0];
      const last = inside.at(-1);
      const active = document.activeElement;
      if (!first || !last) {
        e.preventDefault();
        panel.current.focus();
      } else if (!panel.current.contains(active)) {
        e.preventDefault();
        first.focus();
      } else if (e.shiftKey && (active === first || active === panel.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [navigate]);
  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-slate-900/50 sm:items-center sm:p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`max-h-[92vh] w-full overflow-y-auto rounded-t-xl bg-white p-5 shadow-xl sm:rounded-xl ${size === "lg" ? "sm:max-w-2xl" : "sm:max-w-lg"}`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
            aria-label={t("common:close")}
          >
            ✕
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}
