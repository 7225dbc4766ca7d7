import type { ReactNode } from "react";
import { useTranslation } from "../i18n.ts";

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

/** The texts of each status the app answers with (docs/errors.md); any other is 'generic'. */
const errorKeys: Record<number, string> = {
  400: "badRequest",
  403: "forbidden",
  404: "notFound",
  405: "badRequest",
  413: "tooLarge",
  415: "badRequest",
  503: "unavailable",
};

/** The error page of the root and of the signed-in layout: the status, what it means, retry and home. */
export function ErrorPage({ status, className }: { status: number; className: string }) {
  const { t } = useTranslation();
  const key = errorKeys[status] ?? "generic";
  return (
    <main id="main" className={`mx-auto flex max-w-lg flex-col items-center gap-4 text-center ${className}`}>
      <title>{t(`errors.${key}.title`)}</title>
      <p className="text-5xl font-bold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{t(`errors.${key}.title`)}</h1>
      <p className="text-slate-700">{t(`errors.${key}.body`)}</p>
      <div className="flex gap-3">
        {/* biome-ignore lint/a11y/useValidAnchor: an empty href is this very URL: Retry reloads the page, without JavaScript too */}
        <a className="btn-secondary" href="">
          {t("errors.retry")}
        </a>
        <a className="btn-primary" href="/">
          {t("errors.home")}
        </a>
      </div>
    </main>
  );
}
