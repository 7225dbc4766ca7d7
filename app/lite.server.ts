// Who gets lite mode: a browser that asks to save data (`Save-Data: on`, sent by Chrome's and
// Opera's data savers), or a user who turned it on in the settings (the `lite=1` cookie, a form:
// works without JavaScript).
import { loadConfig } from "../config.ts";

const LITE_COOKIE = "lite";

export function saveDataRequested(request: Request): boolean {
  return request.headers.get("Save-Data")?.trim().toLowerCase() === "on";
}

const LITE_CHOSEN = new RegExp(`(?:^|;\\s*)${LITE_COOKIE}=1(?:;|$)`);

export function liteChosen(request: Request): boolean {
  return LITE_CHOSEN.test(request.headers.get("Cookie") ?? "");
}

export function isLiteRequest(request: Request): boolean {
  return saveDataRequested(request) || liteChosen(request);
}

/** The Set-Cookie header that turns the user's choice on (a year) or off. */
export function liteCookie(on: boolean): string {
  const secure = loadConfig().cookieSecure ? "; Secure" : "";
  const life = on ? `Max-Age=${60 * 60 * 24 * 365}` : "Max-Age=0";
  return `${LITE_COOKIE}=${on ? 1 : 0}; Path=/; ${life}; HttpOnly; SameSite=Lax${secure}`;
}
