// The texts a page carries into the browser (docs/decisions/0003-first-load-javascript-budget.md):
// only the ones its server render looked up, in a JSON block at the end of the document, which is
// all hydration needs; the language's whole texts (a file per language, the same for every page and
// cached) load at the user's first act on the interactive page (a press, a key, a focus), for what
// the page shows then (menus, dialogs, messages, the browser's form checks) and for the next pages. A navigation waits for them (root.tsx clientMiddleware), so a
// page reached in the browser never lacks a text.
import { useEffect, useRef, useState } from "react";
import { whenUserActs } from "./after-hydration.ts";
import type { Language, PageTexts } from "./i18n.ts";
import type { Texts } from "./translate.ts";

/** The id of the JSON block that carries a page's PageTexts into the browser. */
const PAGE_TEXTS_ID = "page-texts";

/** The block itself, for the end of the document (< escaped: the JSON cannot close the element). */
export function pageTextsBlock(texts: PageTexts): string {
  const json = JSON.stringify({ language: texts.language, resources: texts.resources }).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${PAGE_TEXTS_ID}">${json}</script>`;
}

/** The page's texts as the server sent them; null when the block is missing (lite mode has no script). */
export function readPageTexts(): PageTexts | null {
  const block = document.getElementById(PAGE_TEXTS_ID)?.textContent;
  try {
    return block ? (JSON.parse(block) as PageTexts) : null;
  } catch {
    return null;
  }
}

const files: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import("./texts/en.ts"),
  fr: () => import("./texts/fr.ts"),
};
const loaded = new Map<Language, Texts>();
const loading = new Map<Language, Promise<Texts>>();

/** A language's whole texts, loaded once; a failed load can be tried again. */
export function loadTexts(language: Language): Promise<Texts> {
  let pending = loading.get(language);
  if (!pending) {
    pending = files[language]().then(
      (file) => {
        loaded.set(language, file.default);
        return file.default;
      },
      (error: unknown) => {
        loading.delete(language);
        throw error;
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

/** True once the language's whole texts have arrived. */
export function hasLoadedTexts(language: Language): boolean {
  return loaded.has(language);
}

/**
 * Sends a form the browser was about to send itself as a document request, as it goes without
 * JavaScript, when the language's whole texts could not be loaded: the answer's messages (a wrong
 * field, a refused login) are texts the page did not carry, so an answer shown in the browser would
 * show them empty; the server renders the page with them, with what was typed (all but passwords,
 * which it never sends back) and the focus on the first wrong field. Only what a form element can
 * send as plain fields (no form of the app sends a file); anything else is left to the router
 * (`undefined`).
 */
export async function submitAsDocument(request: Request): Promise<never | undefined> {
  if (request.method !== "POST") return undefined;
  let body: FormData;
  try {
    // A clone: if the body is not a form's, the router still sends the original.
    body = await request.clone().formData();
  } catch {
    return undefined;
  }
  const form = document.createElement("form");
  form.method = "post";
  form.action = request.url;
  form.hidden = true;
  for (const [name, value] of body) {
    if (typeof value !== "string") return undefined;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  // The page is being replaced by the server's answer: the router's submission never completes.
  return new Promise<never>(() => {});
}

/**
 * The language's whole texts once they have arrived, else undefined (always on the server and
 * during hydration, which use the page's own texts). Asks for them at the user's first press, key
 * or focus on the page (a navigation asks for them too: root.tsx).
 */
export function useLoadedTexts(language: Language): Texts | undefined {
  const [, setArrived] = useState(0);
  const texts = loaded.get(language);
  useEffect(() => {
    if (texts) return;
    let live = true;
    // At the user's first act (after-hydration.ts): a page only read needs no more than its own texts.
    whenUserActs(() => {
      if (!live) return;
      loadTexts(language).then(
        () => live && setArrived((n) => n + 1),
        // A file that fails to load leaves the page with its own texts; the next navigation tries again.
        () => {},
      );
    });
    return () => {
      live = false;
    };
  }, [language, texts]);
  return texts;
}

/**
 * A page reached in the browser without its language's whole texts (their file failed to load twice:
 * a flaky network) would show its own texts empty: it is asked of the server again, which renders it
 * with them. The page the document was loaded with has its texts in the page, so it never reloads.
 * Only GET navigations get here: a form's submission without the texts went to the server as a
 * document already (root.tsx, submitAsDocument), so no typed input is lost to a reload.
 */
export function useServerPageWithoutTexts(
  hasTexts: boolean,
  language: Language,
  location: { pathname: string; search: string },
) {
  // A page is another page by its language, path and query: a move within it (the skip link's #main,
  // which the router sees as a new location) shows nothing new, and must not reload what the user
  // typed while the texts are still on their way; a new language (the language menu, which comes
  // back to the same address) needs its own texts.
  const page = `${language} ${location.pathname}${location.search}`;
  const first = useRef(page);
  useEffect(() => {
    if (!hasTexts && page !== first.current) window.location.reload();
  }, [hasTexts, page]);
}
