// The frame of the signed-out screens: logo, language menu, a centred card.
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Link } from "react-router";
import { LanguageMenu } from "../../components/language-menu.tsx";
import { Logo } from "../../components/logo.tsx";

export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-white px-3 py-2 sm:px-4">
        <Link to="/" className="flex items-center gap-2" aria-label={t("common:appName")}>
          <Logo />
        </Link>
        <LanguageMenu />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center">
        <div className="card w-full max-w-md p-4 sm:p-6">
          <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-700">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </main>
    </div>
  );
}

export function LegalLinks() {
  const { t } = useTranslation();
  return (
    <p className="mt-6 text-center text-xs text-slate-600">
      {t("auth:legal.prefix")}{" "}
      <Link className="link" to="/terms">
        {t("auth:legal.terms")}
      </Link>{" "}
      {t("auth:legal.and")}{" "}
      <Link className="link" to="/privacy">
        {t("auth:legal.privacy")}
      </Link>
      .
    </p>
  );
}
