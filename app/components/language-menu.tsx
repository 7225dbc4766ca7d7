// The language menu is a form, so it works without JavaScript; with it, choosing submits at once.
import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <Form method="post" action="/language" className="flex items-center gap-1" reloadDocument={false}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="language-select" className="sr-only">
        {t("common:language.label")}
      </label>
      <select
        id="language-select"
        name="lng"
        defaultValue={i18n.language}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        <option value="en">{t("common:language.en")}</option>
        <option value="fr">{t("common:language.fr")}</option>
      </select>
      <noscript>
        <button type="submit" className="btn-secondary px-2 py-1 text-xs">
          {t("common:language.apply")}
        </button>
      </noscript>
    </Form>
  );
}
