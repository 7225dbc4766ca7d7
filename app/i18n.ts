// i18next set-up shared by the server render and the browser. The server knows every language's
// texts from the start (i18n.server.ts provides them); the browser receives only the active
// language's texts with the page. One cached instance per language, built from complete texts only.
import { createContext, useContext } from "react";
import { createInstance, type i18n, type Resource } from "i18next";
import { I18nContext } from "react-i18next";
import { LANGUAGES } from "../contract/constants.ts";

/** The screens' languages are the mail's (contract/settings.ts). */
export const supportedLanguages = LANGUAGES;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";
const namespaces = ["common", "auth", "patient", "doctor", "admin"] as const;
const defaultNS = "common";

export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);

const instances = new Map<string, i18n>();
let allResources: Resource | undefined;

/** The server's texts of every language, loaded once at start: no request can change them. */
export function provideAllResources(resources: Resource) {
  allResources = resources;
  instances.clear();
}

/**
 * A ready i18next instance for a language. On the server the texts are always the complete ones
 * loaded at start, whatever the caller passes. In the browser an instance is cached only when the
 * texts of its language came with the page, so a page that came without them (an error page) can
 * never leave an empty instance behind for the next ones.
 */
export function i18nFor(language: Language, resources: Resource): i18n {
  const texts = allResources ?? resources;
  const complete = texts[language] !== undefined;
  const cached = complete ? instances.get(language) : undefined;
  if (cached) return cached;
  const instance = createInstance();
  instance.init({
    lng: language,
    fallbackLng: fallbackLanguage,
    resources: texts,
    ns: [...namespaces],
    defaultNS,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  if (complete) instances.set(language, instance);
  return instance;
}

/** A page's language and texts, when the root loader could not deliver them (an error before it ran). */
export interface PageTexts {
  language: Language;
  resources: Resource;
}

/** Given by entry.server (from the request) and entry.client (from the page): see root.tsx Layout. */
export const PageTextsContext = createContext<PageTexts | null>(null);

/** The id of the JSON block that carries PageTexts into the browser on such a page. */
export const PAGE_TEXTS_ID = "page-texts";

/**
 * The page's translate function and i18next instance, as react-i18next's `useTranslation()` gives
 * them. That hook copies every property of the instance into a wrapper on each component mount
 * (about 4% of a page's server time, measured in bench/README.md) so that a language change inside a
 * live instance re-renders; here an instance never changes language (one per language, i18nFor),
 * and a new language reaches the components as a new instance through the root's provider.
 */
export function useTranslation(): { t: i18n["t"]; i18n: i18n } {
  const instance = useContext(I18nContext)?.i18n;
  if (!instance) throw new Error("useTranslation needs the root's I18nextProvider");
  return { t: instance.t, i18n: instance };
}
