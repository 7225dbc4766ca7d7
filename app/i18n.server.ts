// Language detection (cookie i18nextLng, then Accept-Language, then English) and server-side texts.
import { createContext, RouterContextProvider, type Cookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next";
import { createInstance, type i18n, type Resource } from "i18next";
import { loadConfig } from "../config.ts";
import { remembered } from "../contract/remembered.ts";
import { fallbackLanguage, isLanguage, supportedLanguages, type Language, type PageTexts } from "./i18n.ts";
import en from "./texts/en.ts";
import fr from "./texts/fr.ts";

export const languageResources: Record<Language, Resource[string]> = { en, fr };

// Loaders and actions translate with i18next, one instance per language built once at start with
// every language's texts (the pages translate with app/translate.ts, checked against these).
const instances = new Map<Language, i18n>();
export function i18nFor(language: Language): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createInstance();
    instance.init({
      lng: language,
      fallbackLng: fallbackLanguage,
      resources: Object.fromEntries(supportedLanguages.map((l) => [l, languageResources[l]])) as Resource,
      ns: Object.keys(languageResources.en),
      defaultNS: "common",
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    instances.set(language, instance);
  }
  return instance;
}

/**
 * The language cookie holds the bare code (`i18nextLng=fr`), as i18next's own browser detector and
 * other tools write it, not react-router's base64-JSON encoding: a value set outside the app (a
 * proxy, a test, a link from the marketing site) is understood.
 */
const LANGUAGE_COOKIE = "i18nextLng";
export const languageCookie: Cookie = {
  name: LANGUAGE_COOKIE,
  isSigned: false,
  expires: undefined,
  async parse(header) {
    const value = header?.match(/(?:^|;\s*)i18nextLng=([^;]*)/)?.[1];
    if (value === undefined) return null;
    try {
      return decodeURIComponent(value).replace(/^"|"$/g, "");
    } catch {
      // Not well encoded ('%'): no choice, as without the cookie, rather than a refused request.
      return null;
    }
  },
  async serialize(value: string) {
    const secure = loadConfig().cookieSecure ? "; Secure" : "";
    return `${LANGUAGE_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${60 * 60 * 24 * 365}; HttpOnly; SameSite=Lax${secure}`;
  },
};

// Detection only: translation uses one cached instance per language (see i18n.ts), which keeps
// building an i18next instance with every text off the hot path of each request.
const [i18nextMiddleware, getDetectedLanguage] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    order: ["cookie", "header"],
  },
  i18next: { initAsync: false },
});

/**
 * Runs the language detection at the HTTP edge, before React Router, so that every answer (an
 * error before any route middleware ran included) knows the user's language.
 */
export async function detectLanguage(request: Request, context: RouterContextProvider) {
  // The language depends only on the language cookie and Accept-Language, and the same few pairs
  // come again and again: remix-i18next's middleware (which also builds an i18next instance each
  // time, and parses Accept-Language through Intl) runs once per pair. Nothing of the user's is
  // kept: a language code per pair of headers, forgotten in bulk past 1,000 pairs. A detection that
  // fails gives the fallback language, so no failure is remembered for a pair.
  const cookie = await languageCookie.parse(request.headers.get("Cookie"));
  const key = `${cookie ?? ""}\n${request.headers.get("Accept-Language") ?? ""}`;
  const language = await detected(key, () => detect(request).catch(() => fallbackLanguage));
  context.set(languageContext, language);
}

async function detect(request: Request): Promise<Language> {
  const probe = new RouterContextProvider();
  await i18nextMiddleware(
    { request, context: probe, params: {}, pattern: "", url: new URL(request.url) },
    async () => new Response(null),
  );
  const found = getDetectedLanguage(probe);
  return isLanguage(found) ? found : fallbackLanguage;
}

const detected = remembered<Promise<Language>>(1_000);
const languageContext = createContext<Language>(fallbackLanguage);

/** The language and texts a page is rendered with, for a page the root loader did not serve. */
export function pageTexts(context: Readonly<RouterContextProvider>): PageTexts {
  const language = getLanguage(context);
  return { language, resources: { [language]: languageResources[language] } };
}

export function getLanguage(context: Readonly<RouterContextProvider>): Language {
  return context.get(languageContext);
}

/** The translate function for the request's language, for loaders and actions. */
export function getT(context: Readonly<RouterContextProvider>) {
  return i18nFor(getLanguage(context)).t;
}
