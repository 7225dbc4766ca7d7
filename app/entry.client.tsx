import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { PageTextsContext } from "./i18n.ts";
import { readPageTexts } from "./page-texts.ts";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <PageTextsContext.Provider value={readPageTexts()}>
          <HydratedRouter />
        </PageTextsContext.Provider>
      </StrictMode>,
    );
  });
}

// The page's texts come last in the document (entry.server.tsx), and React Router's module script is
// async: it may run before the parser has reached them. Hydration starts once they are there.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hydrate, { once: true });
else hydrate();
