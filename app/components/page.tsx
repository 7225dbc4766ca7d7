import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A screen's heading block: the document title, an h1 and an optional subtitle and actions. */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <title>{title}</title>
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-700">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A plain 'coming' page for screens a later issue fills. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section>
      <PageHeader title={t(titleKey)} />
      <p className="card text-slate-700">{t("common:coming")}</p>
    </section>
  );
}
