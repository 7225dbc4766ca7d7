// Authentication as middleware: `requireUser(...roles)` puts the signed-in user and an upstream
// client in the router context, or redirects (docs/product.md, Roles and homes).
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { safeRedirect as safePath } from "remix-utils/safe-redirect";
import { getLanguage } from "./i18n.server.ts";
import { pageContext, servicesContext } from "./context.ts";
import { loginPath, readSession, roleHome, type Role, type SessionUser } from "./session.server.ts";
import { createUpstream, type Upstream } from "./upstream.server.ts";

/** `pageScope`: the key of this page's shared token check, when the API runs in this process (contract/api-transport.ts). */
const userContext = createContext<{ user: SessionUser; token: string; pageScope?: string } | null>(null);

/**
 * Anonymous users go to /login?redirectTo=<the page they asked for>; a user of another role goes to
 * their role home. Every signed-in answer is `private, no-store`: after logout, Back must not
 * show the previous user's pages from the browser's cache.
 *
 * The session is read once per request: under the app layout's `requireUser()`, a role layout's
 * `requireUser("doctor")` only checks the role of the user already read.
 */
export function requireUser(...roles: Role[]): MiddlewareFunction<Response> {
  return async ({ request, context, url }, next) => {
    const known = context.get(userContext);
    if (known) {
      if (roles.length && !roles.includes(known.user.role)) throw redirect(roleHome(known.user.role));
      return next();
    }
    const { user, token } = await readSession(request);
    // `url` is the page's URL even for the router's data requests (`/health/doctors.data?_routes=…`).
    const page = url.pathname + url.search;
    if (!user || !token) throw redirect(loginPath(page));
    if (roles.length && !roles.includes(user.role)) throw redirect(roleHome(user.role));
    // The page's upstream calls share one token check; the scope ends with the page's loaders and
    // actions (a call made later, while the answer streams, is checked on its own).
    const scopes = context.get(servicesContext).pageScopes;
    const pageScope = scopes?.open();
    context.set(userContext, { user, token, pageScope });
    // Where a session the API ends (an expired token) sends the user back after login.
    context.set(pageContext, page);
    try {
      const response = await next();
      response.headers.set("Cache-Control", "private, no-store");
      return response;
    } finally {
      if (pageScope) scopes?.close(pageScope);
    }
  };
}

/** Login and register are for signed-out users: anyone signed in is sent home. */
export const requireAnonymous: MiddlewareFunction<Response> = async ({ request }, next) => {
  const { user } = await readSession(request);
  if (user) throw redirect(roleHome(user.role));
  return next();
};

/** The signed-in user; only inside routes behind `requireUser`. */
export function getUser(context: Readonly<RouterContextProvider>) {
  const value = context.get(userContext);
  if (!value) throw redirect("/login");
  return value.user;
}

/**
 * The one way routes get an upstream client: it carries the signed-in user's token (anonymous
 * when there is none), or `token` when given (a route outside requireUser acting for a session it
 * read itself: logout, the language switch), and the page's language unless `language` is given.
 */
export function upstream(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: { token?: string; language?: string } = {},
): Upstream {
  const value = context.get(userContext);
  const language = options.language ?? getLanguage(context);
  if (options.token) return createUpstream(request, context, { token: options.token, language });
  return createUpstream(request, context, { token: value?.token, pageScope: value?.pageScope, language });
}

/**
 * THE check of every redirect target a user can influence (login's redirectTo, the language
 * switch): only a path of this site is followed, else `fallback`. remix-utils refuses what does not
 * start with one `/`; browsers also drop TAB, CR and LF inside a URL and read `\` as `/`, so
 * `/<TAB>/evil.example` would become `//evil.example`: any control character or backslash is
 * refused, and the target must still be this site once parsed. The answer is the parsed path,
 * percent-encoded, so it is always a valid Location header (docs/errors.md).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string") return fallback;
  const path = safePath(to, fallback);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (path === fallback || /[\u0000-\u001f\u007f-\u009f\\]/.test(to)) return fallback;
  const base = "http://this.site.invalid";
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return fallback;
  }
  return url.origin === base ? url.pathname + url.search + url.hash : fallback;
}
/**
 * The page a form was posted from, to redirect back to it. Under client navigation React Router
 * posts to the route's data URL (`/doctor/appointments.data?index`), so `request.url` is not the
 * page: strip the `.data` suffix and the router's own search parameters.
 */
export function pageOf(request: Request): string {
  const url = new URL(request.url);
  let pathname = url.pathname;
  if (pathname === "/_root.data") pathname = "/";
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length).replace(/\/_$/, "/");
  url.searchParams.delete("index");
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}
