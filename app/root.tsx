import { useContext, useEffect, useMemo } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  UNSAFE_useScrollRestoration as useScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Resource } from "i18next";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { afterHydration, loadWhenUserActs, markHydrated } from "./after-hydration.ts";
import { ErrorPage } from "./components/page.tsx";
import { refusedRequestContext } from "./context.ts";
import {
  fallbackLanguage,
  isLanguage,
  PageTextsContext,
  TranslationProvider,
  translationFor,
  useTranslation,
} from "./i18n.ts";
import { getLanguage } from "./i18n.server.ts";
import {
  hasLoadedTexts,
  loadTexts,
  submitAsDocument,
  useLoadedTexts,
  useServerPageWithoutTexts,
} from "./page-texts.ts";
import { useNonce } from "./nonce.tsx";
import { useLite } from "./lite.tsx";
import { clinicZoneName } from "./clinic.server.ts";
import { takeToast } from "./toast.server.ts";

/** What the HTTP edge refused (request-handler.server.ts) is answered with the error page and its status. */
const answerRefusedRequest: Route.MiddlewareFunction = ({ context }, next) => {
  const refused = context.get(refusedRequestContext);
  if (refused) throw data(null, { status: refused.status });
  return next();
};

// The language is detected at the HTTP edge (detectLanguage), before any route runs.
export const middleware: Route.MiddlewareFunction[] = [answerRefusedRequest];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const language = getLanguage(context);
  const { toast, setCookie } = await takeToast(request);
  return data(
    // The texts are not loader data: a page carries those it shows (entry.server.tsx), and the
    // browser loads the language's whole texts once (page-texts.ts).
    // The clinic zone's name travels too: every screen that shows a time names it (components/clinic-time-zone.tsx).
    { language, toast, clinicZone: clinicZoneName(language) },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

/**
 * Waits, if need be, for the whole texts of the page's language before the next page shows; a failed
 * load is tried once more. True when they are there.
 */
async function withTexts(language: unknown): Promise<boolean> {
  if (!isLanguage(language)) return false;
  await loadTexts(language)
    .catch(() => loadTexts(language))
    .catch(() => {});
  return hasLoadedTexts(language);
}

// Every navigation and form answered in the browser: the next page may show texts this one did not.
// Still without them, a form goes to the server as a document (submitAsDocument), before its action
// runs, so its answer is whole; a page reached by a link is asked of the server once it is reached
// (useServerPageWithoutTexts): a middleware cannot tell a link's navigation from a fetcher's load.
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    if (!(await withTexts(document.documentElement.lang))) await submitAsDocument(request);
    return next();
  },
];

// A new language (the language menu) comes with the root's data: its texts are there before it shows.
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const root = await serverLoader();
  await withTexts(root.language);
  return root;
}

/**
 * React Router's <ScrollRestoration> with a safe first step: its inline script reads
 * sessionStorage and, when storage is blocked, touches it again in its error path, so it throws on
 * every page. The same restore, with nothing thrown; the hook behind it already guards its own
 * storage calls.
 */
function SafeScrollRestoration({ nonce }: { nonce?: string }) {
  useScrollRestoration();
  const restore = `(function () {
  if (!history.state || !history.state.key) history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
  try {
    var y = JSON.parse(sessionStorage.getItem("react-router-scroll-positions") || "{}")[history.state.key];
    if (typeof y === "number") scrollTo(0, y);
  } catch (e) {}
})()`;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, with the CSP nonce
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: restore }} />;
}

/** The first stop of the Tab key: straight to the page's <main id="main">, past the menus. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-800 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      {t("common:skipToContent")}
    </a>
  );
}

// A flash toast follows something the user did (a saved form, a booking): its code loads after the
// page is interactive, as a dialog's does (after-hydration.ts). A page rendered with one hydrates
// once it has come; one that comes later, after an action, finds it loaded.
const loadToaster = () => import("./components/toaster.tsx");
const Toaster = afterHydration(() => loadToaster().then((m) => m.Toaster));

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const lite = useLite();
  // The page's texts: on the server the whole language, recording what the render uses; in the
  // browser those the server used, until the whole language has arrived (page-texts.ts). An error
  // before the root loader ran (a refused request, an unknown URL) leaves no loader data: the
  // language is then the page's.
  const pageTexts = useContext(PageTextsContext);
  const language = root?.language ?? pageTexts?.language ?? fallbackLanguage;
  const loaded = useLoadedTexts(language);
  const resources: Resource | undefined = loaded
    ? { [language]: loaded as Resource[string] }
    : pageTexts?.language === language
      ? pageTexts.resources
      : undefined;
  const record = pageTexts?.record;
  const translation = useMemo(
    () => translationFor(language, resources ?? {}, record, loaded !== undefined),
    [language, resources, record, loaded],
  );
  useServerPageWithoutTexts(loaded !== undefined, language, useLocation());
  // Modules that load after hydration may now ask the server for a page they fail on
  // (after-hydration.ts); the toast's is fetched at the user's first act, so the toast of their next
  // action shows at once.
  useEffect(() => {
    markHydrated();
    loadWhenUserActs(loadToaster);
  }, []);
  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen font-sans">
        <TranslationProvider value={translation}>
          <SkipLink />
          {children}
          {root?.toast ? <Toaster toast={root.toast} /> : null}
        </TranslationProvider>
        {lite ? null : (
          <>
            <SafeScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // In the browser only (an effect does not run on the server): there entry.server.tsx's handleError
  // has logged the error already, whole and before React Router hides it as "Unexpected Server
  // Error", and says nothing of a request the client broke off, which also lands here.
  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error(error);
  }, [error]);
  return <ErrorPage status={status} className="min-h-screen justify-center p-6" />;
}
