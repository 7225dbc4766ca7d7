// The flash toast of the page (top-right, under the top bar so it never covers its menus). It
// never takes a click or a tap meant for what is under it: only its own Dismiss link does.
// - A success or info toast closes after 5 seconds (docs/layout.md): a CSS animation hides it even
//   without JavaScript; with JavaScript it is also removed from the page.
// - An error toast stays until the user dismisses it or leaves the page: a failure read in passing
//   and gone is a failure missed. Dismiss is a link to the page itself (the flash is spent, so the
//   page comes back without it); with JavaScript it closes in place.
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n.ts";
import { useLocation } from "react-router";
import type { Toast } from "../toast.server.ts";

const tone = {
  success: "border-green-700 bg-green-50 text-green-900",
  error: "border-red-700 bg-red-50 text-red-900",
  info: "border-brand-600 bg-brand-50 text-brand-800",
};

export function Toaster({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [open, setOpen] = useState(true);
  // A new toast is a new element, so its fade-out animation starts again.
  const [shown, setShown] = useState(0);
  const stays = toast.type === "error";
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new toast is the trigger that shows it again
  useEffect(() => {
    setOpen(true);
    setShown((n) => n + 1);
    if (stays) return;
    const timer = setTimeout(() => setOpen(false), 5000);
    return () => clearTimeout(timer);
  }, [toast, stays]);
  if (!open) return null;
  return (
    <div
      className="pointer-events-none fixed top-16 right-4 left-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:max-w-sm"
      aria-live="polite"
    >
      <div
        key={shown}
        role={stays ? "alert" : "status"}
        className={`rounded-md border-l-4 px-4 py-3 shadow-lg ${stays ? "" : "animate-toast-out"} ${tone[toast.type]}`}
      >
        <p>{t(toast.message, toast.values)}</p>
        {stays ? (
          <a
            href={location.pathname + location.search}
            className="link-alone pointer-events-auto mt-1 text-sm"
            onClick={(event) => {
              event.preventDefault();
              setOpen(false);
            }}
          >
            {t("common:toast.dismiss")}
          </a>
        ) : null}
      </div>
    </div>
  );
}
