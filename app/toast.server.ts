// Flash toasts: set on a redirect, shown once by the next page (top-right; with JavaScript they
// close after 5 seconds). Messages are translation keys with optional values.
import { createCookieSessionStorage, redirect } from "react-router";
import { loadConfig } from "../config.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

export interface Toast {
  type: "success" | "error" | "info";
  /** A translation key, e.g. "auth:login.success". */
  message: string;
  values?: Record<string, string | number>;
}

const config = loadConfig();

const toastStorage = createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
  cookie: createSignedCookie("__toast", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config.cookieSecure,
    secrets: config.sessionSecrets,
  }),
});

export async function toastCookie(toast: Toast, request?: Request) {
  const session = await toastStorage.getSession(request?.headers.get("Cookie"));
  session.flash("toast", toast);
  return toastStorage.commitSession(session);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the pending toast; the Set-Cookie header clears it. */
export async function takeToast(request: Request) {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const toast = session.get("toast") ?? null;
  return { toast, setCookie: toast ? await toastStorage.commitSession(session) : null };
}
