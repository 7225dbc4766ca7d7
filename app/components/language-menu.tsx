// The language menu is a plain form, so it works without JavaScript and when script files are
// blocked (its Apply button is in the page until the scripts run); with JavaScript, choosing
// submits at once and the button is hidden. Hidden, not removed: its place stays, so nothing in the
// header moves when the scripts come (Lighthouse's layout shift was 0.001 on every page).
import { useEffect, useId, useState } from "react";
import { useTranslation } from "../i18n.ts";
import { Form, useLocation } from "react-router";

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  // The shell holds two (top bar and phone menu): each needs its own id.
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <Form method="post" action="/language" className="flex items-center gap-1" reloadDocument={false}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor={id} className="sr-only">
        {t("common:language.label")}
      </label>
      <select
        id={id}
        name="lng"
        defaultValue={i18n.language}
        className="min-h-9 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        <option value="en">{t("common:language.en")}</option>
        <option value="fr">{t("common:language.fr")}</option>
      </select>
      <button type="submit" className={`btn-secondary min-h-9 px-2 py-1 text-xs ${hydrated ? "invisible" : ""}`}>
        {t("common:language.apply")}
      </button>
    </Form>
  );
}
