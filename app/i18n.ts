// Languages and the pages' translations, shared by the server render and the browser. The pages
// translate with app/translate.ts (i18next's `t()` for what the screens use, without i18next's weight
// in the browser: docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md); the server's
// loaders and actions translate with i18next (i18n.server.ts). The browser receives only the active
// language's texts with the page.
import { createContext, useContext } from "react";
import { useHydrated as useScriptsRun } from "remix-utils/use-hydrated";
import type { Resource, TFunction } from "i18next";
import { createTranslate, type TextRecorder, type Texts } from "./translate.ts";
import { LANGUAGES } from "../contract/constants.ts";

/** The screens' languages are the mail's (contract/settings.ts). */
export const supportedLanguages = LANGUAGES;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);

/**
 * A page's language and texts: on the server the language's whole texts and the recorder of those
 * the render uses; in the browser the ones the server recorded (app/page-texts.ts).
 */
export interface PageTexts {
  language: Language;
  resources: Resource;
  record?: TextRecorder;
}

/** Given by entry.server (from the request) and entry.client (from the page): see root.tsx Layout. */
export const PageTextsContext = createContext<PageTexts | null>(null);

/** What components translate with: the page's translate function and its language. */
export interface Translation {
  t: TFunction;
  i18n: { language: Language };
  /** Over the language's whole texts, not only those the page carried (app/page-texts.ts). */
  complete?: boolean;
}

const TranslationContext = createContext<Translation | null>(null);
/** Given by the root layout, for the page's language. */
export const TranslationProvider = TranslationContext.Provider;

// One translation per language's texts object: the server passes the same texts to every page of a
// language, and the browser keeps the root loader's data until it revalidates.
const translations = new WeakMap<object, Translation>();

/** The translation of a language over the texts the page carries; until `complete`, a text it lacks is empty. */
export function translationFor(
  language: Language,
  resources: Resource,
  record?: TextRecorder,
  complete = false,
): Translation {
  // A render that records its texts has a translation of its own (one server request).
  if (record)
    return {
      t: createTranslate(language, (resources[language] as Texts | undefined) ?? {}, record),
      i18n: { language },
    };
  const texts = resources[language] as Texts | undefined;
  let translation = texts && translations.get(texts);
  if (!translation) {
    translation = { t: createTranslate(language, texts ?? {}, undefined, !complete), i18n: { language }, complete };
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

/**
 * True once the page is hydrated and has its language's whole texts. What a component shows only
 * with JavaScript was not in the server's render, so its texts may not be in the page
 * (app/page-texts.ts): until they are, the component keeps its server-rendered form, which works.
 */
export function useHydrated(): boolean {
  const hydrated = useScriptsRun();
  const { complete } = useTranslation();
  return hydrated && complete === true;
}
