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

// What a first visit downloads is what reading the page needs (docs/performance.md, First visit):
// the code and texts that only matter once the user does something (opens a dialog, types in a
// form, follows a link) load at their first press, key or focus on the page, not as soon as the
// page is interactive. A press comes before its click, so what it loads is usually there when the
// click is handled; what is not waits (a dialog shows once its module has come).
const ACTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;
let acted = false;
const waiting: (() => void)[] = [];

function onAct() {
  if (acted) return;
  acted = true;
  for (const act of ACTS) document.removeEventListener(act, onAct, true);
  for (const run of waiting.splice(0)) run();
}

/**
 * Runs `run` at the user's first press, key or focus on the page, or now if there was one. Something
 * focused already counts: a field the user went to before the scripts ran, or a dialog that took
 * the focus as it opened (before this was asked: children's effects run first).
 */
export function whenUserActs(run: () => void) {
  if (!acted && document.activeElement && document.activeElement !== document.body) onAct();
  if (acted) return run();
  if (waiting.length === 0)
    for (const act of ACTS) document.addEventListener(act, onAct, { capture: true, passive: true });
  waiting.push(run);
}

/**
 * The user acted before the page's scripts ran (a field they filled on a slow phone: early-input.ts):
 * what waits for a first act loads now, as a press on the page would have made it load.
 */
export function userActedEarly() {
  onAct();
}

/** Fetches a module at the user's first act (whenUserActs); one that fails is tried again when it is shown. */
export function loadWhenUserActs(load: () => Promise<unknown>) {
  whenUserActs(() => void load().catch(() => {}));
}

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
