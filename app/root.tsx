import { useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { Toaster } from "./components/toaster.tsx";
import { fallbackLanguage, i18nFor } from "./i18n.ts";
import { getLanguage, i18nextMiddleware, languageResources } from "./i18n.server.ts";
import { useNonce } from "./nonce.tsx";
import { takeToast } from "./toast.server.ts";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const language = getLanguage(context);
  const { toast, setCookie } = await takeToast(request);
  return data(
    // Only the active language's texts travel to the browser.
    { language, resources: { [language]: languageResources[language] }, toast },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const language = root?.language ?? fallbackLanguage;
  const i18n = useMemo(() => i18nFor(language, root?.resources ?? {}), [language, root?.resources]);
  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen font-sans">
        <I18nextProvider i18n={i18n}>
          {children}
          {root?.toast ? <Toaster toast={root.toast} /> : null}
        </I18nextProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const key = status === 404 ? "notFound" : status === 403 ? "forbidden" : status === 503 ? "unavailable" : "generic";
  if (status >= 500 && !isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{t(`errors.${key}.title`)}</title>
      <p className="text-5xl font-bold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{t(`errors.${key}.title`)}</h1>
      <p className="text-slate-700">{t(`errors.${key}.body`)}</p>
      <div className="flex gap-3">
        <a className="btn-secondary" href="">
          {t("errors.retry")}
        </a>
        <a className="btn-primary" href="/">
          {t("errors.home")}
        </a>
      </div>
    </main>
  );
}
