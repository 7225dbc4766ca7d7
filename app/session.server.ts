// The one module that owns the session cookie: the upstream token and a minimal user
// (id, role, username, avatarUrl) — never e-mail, phone or medical data in a cookie.
import { createCookieSessionStorage, redirect } from "react-router";
import { loadConfig } from "../config.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

import { ROLES, type Role } from "../contract/constants.ts";

export type { Role };
export interface SessionUser {
  id: string;
  role: Role;
  username: string;
  avatarUrl: string | null;
}

interface SessionData {
  token: string;
  user: SessionUser;
  /** The doctor-profile code gate (docs/product.md, Accounts and codes), valid 30 minutes for the same user. */
  profileVerified: { userId: string; verifiedAt: number };
}

const config = loadConfig();

export const sessionStorage = createCookieSessionStorage<SessionData>({
  cookie: createSignedCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config.cookieSecure,
    secrets: config.sessionSecrets,
    maxAge: 60 * 60 * 24 * 30,
  }),
});

/**
 * A test cookie the login page sets and its form must bring back: without it the session cookie
 * would not come back either, so the login page says cookies are blocked instead of silently
 * showing the form again after a successful login.
 */
export const COOKIE_CHECK = `cookie_check=1; Path=/; Max-Age=${60 * 60 * 24 * 365}; HttpOnly; SameSite=Lax${config.cookieSecure ? "; Secure" : ""}`;
export const cookiesCameBack = (request: Request) =>
  /(?:^|;\s*)cookie_check=1(?:;|$)/.test(request.headers.get("Cookie") ?? "");

export const getSession = (request: Request) => sessionStorage.getSession(request.headers.get("Cookie"));

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** docs/product.md, Roles and homes. */
export function roleHome(role: Role | undefined): string {
  if (role === "doctor") return "/doctor/appointments";
  if (role === "admin") return "/admin";
  if (role === "patient") return "/health/doctors";
  if (role === "receptionist") return "/reception";
  return "/login";
}

export async function readSession(request: Request) {
  const session = await getSession(request);
  const token = session.get("token");
  const stored = session.get("user");
  // docs/product.md, Data: the role defaults to patient when absent or invalid.
  const user = token && stored ? { ...stored, role: isRole(stored.role) ? stored.role : "patient" } : null;
  return { session, token: user ? token : undefined, user };
}

/** The login page, coming back to `page` (a path of this site) afterwards. */
export function loginPath(page: string) {
  return page === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(page)}`;
}

export async function logoutRedirect(request: Request, to = "/login", headers = new Headers()) {
  const session = await getSession(request);
  headers.append("Set-Cookie", await sessionStorage.destroySession(session));
  return redirect(to, { headers });
}
