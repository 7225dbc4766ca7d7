// i18next set-up shared by the server render and the browser. The browser receives only the
// active language's texts (from the root loader); one cached instance per language.
import { createInstance, type i18n, type Resource } from "i18next";

export const supportedLanguages = ["en", "fr"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";
export const namespaces = ["common", "auth", "patient", "doctor", "admin"] as const;
export const defaultNS = "common";

export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);

const instances = new Map<string, i18n>();

/** A ready i18next instance for a language; texts never change at run time, so it is cached. */
export function i18nFor(language: Language, resources: Resource): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createInstance();
    instance.init({
      lng: language,
      fallbackLng: fallbackLanguage,
      resources,
      ns: [...namespaces],
      defaultNS,
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    instances.set(language, instance);
  }
  return instance;
}
