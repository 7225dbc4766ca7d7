// Parts of a page that load after it is interactive (a dialog, a form, a refused action's note, the
// flash toast: docs/decisions/0003-first-load-javascript-budget.md). A page rendered with one on the server
// hydrates once its module has come (no Suspense boundary, so nothing shows a fallback); one shown
// later is fetched then, or found loaded.
//
// A module that cannot be loaded (a flaky network, a blocked script) must not cost the page: on a
// page reached in the browser, the page is asked of the server, which renders it whole; on the page
// the document was loaded with, still hydrating, the server's page stays as it is and works as it
// does without JavaScript (its links and forms are plain ones), rather than an error page.
import { lazy, type ComponentType } from "react";

let hydrated = false;

/** Called by the root once the page has hydrated. */
export function markHydrated() {
  hydrated = true;
}

/** A component that renders what `load` gives, loaded after hydration (or found loaded). */
export function afterHydration<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() =>
    load().then(
      (loaded) => ({ default: loaded }),
      () => {
        if (hydrated) window.location.reload();
        return new Promise<never>(() => {});
      },
    ),
  );
}
