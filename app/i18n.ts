// Languages and the pages' translations, shared by the server render and the browser. The pages
// translate with app/translate.ts (i18next's `t()` for what the screens use, without i18next's weight
// in the browser: docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md); the server's
// loaders and actions translate with i18next (i18n.server.ts). The browser receives only the active
// language's texts with the page.
import { createContext, useContext } from "react";
import type { Resource, TFunction } from "i18next";
import { createTranslate, type Texts } from "./translate.ts";
import { LANGUAGES } from "../contract/constants.ts";

/** The screens' languages are the mail's (contract/settings.ts). */
export const supportedLanguages = LANGUAGES;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);

/** A page's language and texts, when the root loader could not deliver them (an error before it ran). */
export interface PageTexts {
  language: Language;
  resources: Resource;
}

/** Given by entry.server (from the request) and entry.client (from the page): see root.tsx Layout. */
export const PageTextsContext = createContext<PageTexts | null>(null);

/** The id of the JSON block that carries PageTexts into the browser on such a page. */
export const PAGE_TEXTS_ID = "page-texts";

/** What components translate with: the page's translate function and its language. */
export interface Translation {
  t: TFunction;
  i18n: { language: Language };
}

const TranslationContext = createContext<Translation | null>(null);
/** Given by the root layout, for the page's language. */
export const TranslationProvider = TranslationContext.Provider;

// One translation per language's texts object: the server passes the same texts to every page of a
// language, and the browser keeps the root loader's data until it revalidates.
const translations = new WeakMap<object, Translation>();

/** The translation of a language over the texts the page carries (none: every key shows as itself). */
export function translationFor(language: Language, resources: Resource): Translation {
  const texts = resources[language] as Texts | undefined;
  let translation = texts && translations.get(texts);
  if (!translation) {
    translation = { t: createTranslate(language, texts ?? {}), i18n: { language } };
    if (texts) translations.set(texts, translation);
  }
  return translation;
}

/**
 * The page's translate function and language, in the shape react-i18next's `useTranslation()` gives
 * them (`t`, `i18n.language`). A new language reaches the components as a new translation through
 * the root's provider.
 */
export function useTranslation(): Translation {
  const translation = useContext(TranslationContext);
  if (!translation) throw new Error("useTranslation needs the root's TranslationProvider");
  return translation;
}
