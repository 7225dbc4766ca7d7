// The flash toast of the page (top-right, under the top bar so it never covers its menus). It
// closes after 5 seconds (docs/layout.md): a CSS animation hides it even without JavaScript;
// with JavaScript it is also removed from the page. It never takes a click or a tap: what is under
// it stays usable while it shows (it holds no control of its own).
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n.ts";
import type { Toast } from "../toast.server.ts";

const tone = {
  success: "border-green-700 bg-green-50 text-green-900",
  error: "border-red-700 bg-red-50 text-red-900",
  info: "border-brand-600 bg-brand-50 text-brand-800",
};

export function Toaster({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  // A new toast is a new element, so its fade-out animation starts again.
  const [shown, setShown] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new toast is the trigger that shows it again
  useEffect(() => {
    setOpen(true);
    setShown((n) => n + 1);
    const timer = setTimeout(() => setOpen(false), 5000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!open) return null;
  return (
    <div className="pointer-events-none fixed top-16 right-4 left-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:max-w-sm" aria-live="polite">
      <div key={shown} role={toast.type === "error" ? "alert" : "status"} className={`animate-toast-out rounded-md border-l-4 px-4 py-3 shadow-lg ${tone[toast.type]}`}>
        {t(toast.message, toast.values)}
      </div>
    </div>
  );
}
