// Authentication as middleware: `requireUser(...roles)` puts the signed-in user and an upstream
// client in the router context, or redirects (SPEC.md section 2 guards, DESIGN.md section 4).
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getLanguage } from "./i18n.server.ts";
import { readSession, roleHome, type Role, type SessionUser } from "./session.server.ts";
import { createUpstream, type Upstream } from "./upstream.server.ts";

export const userContext = createContext<{ user: SessionUser; token: string } | null>(null);

/** Anonymous users go to /login?redirectTo=…; a user of another role goes to their role home. */
export function requireUser(...roles: Role[]): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const { user, token } = await readSession(request);
    if (!user || !token) {
      const url = new URL(request.url);
      const redirectTo = url.pathname + url.search;
      throw redirect(redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    }
    if (roles.length && !roles.includes(user.role)) throw redirect(roleHome(user.role));
    context.set(userContext, { user, token });
    return next();
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

/** An upstream client carrying the signed-in user's token (anonymous when there is none). */
export function upstream(request: Request, context: Readonly<RouterContextProvider>): Upstream {
  const value = context.get(userContext);
  return createUpstream(request, { token: value?.token, context, language: getLanguage(context) });
}

/** Only same-site relative paths are followed after login (no open redirect). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string) {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
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
