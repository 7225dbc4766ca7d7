// A plain printable document (no shell, no JavaScript needed): a hint and a back link that do not
// print, then the content.
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";

export function PrintPage({
  title,
  hint,
  backTo,
  children,
}: {
  title: string;
  hint: string;
  backTo: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-3xl bg-white p-6 print:max-w-none print:p-0">
      <title>{title}</title>
      <div
        className="mb-6 flex flex-wrap items-center justify-between gap-2 rounded-md border border-brand-600 bg-brand-50 px-4 py-3 text-sm text-brand-800 print:hidden"
        role="note"
      >
        <p>{hint}</p>
        <a href={backTo} className="link py-0.5">
          {t("doctor:print.back")}
        </a>
      </div>
      <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
      {children}
    </main>
  );
}
