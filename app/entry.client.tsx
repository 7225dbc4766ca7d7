import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { PAGE_TEXTS_ID, PageTextsContext, type PageTexts } from "./i18n.ts";

// An error page rendered before the root loader ran carries its language and texts in a JSON
// block (see root.tsx Layout): without them the page would show raw keys once hydrated.
function pageTexts(): PageTexts | null {
  const block = document.getElementById(PAGE_TEXTS_ID)?.textContent;
  try {
    return block ? (JSON.parse(block) as PageTexts) : null;
  } catch {
    return null;
  }
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <PageTextsContext.Provider value={pageTexts()}>
        <HydratedRouter />
      </PageTextsContext.Provider>
    </StrictMode>,
  );
});
