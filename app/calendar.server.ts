// The web side of calendars and video rooms (docs/calendars.md): calendar files are fetched from
// the API and passed on as downloads; the video link is whatever the API says for now.
import { config } from "../config.ts";
import type { Upstream } from "./upstream.server.ts";
import type { VideoLink } from "./video-link.ts";
import { clockIn, isoDateIn } from "./format.ts";
import type { FeedStatusAnswer, RenewedFeed, VideoLink as VideoAnswer } from "../contract/calendar.ts";

/** A text/calendar download, or the upstream's refusal as a bare status (404 for others' appointments). */
export function calendarResponse(
  result: { ok: true; data: unknown } | { ok: false; status: number },
  filename?: string,
): Response {
  if (!result.ok || typeof result.data !== "string") {
    const status = result.ok ? 502 : result.status >= 500 ? 503 : result.status;
    return new Response(null, { status, headers: { "Cache-Control": "no-store" } });
  }
  return new Response(result.data, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      ...(filename ? { "Content-Disposition": `attachment; filename="${filename}"` } : {}),
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * The video link of an appointment shown in a dialog: asked only for an online appointment of
 * which the user is a party, and nothing (no link, no hint) when the API cannot say.
 */
export async function videoLinkOf(
  api: Upstream,
  a: { id: string; type: string } | null,
  isParty: boolean,
  now = new Date(),
): Promise<VideoLink | null> {
  if (a?.type !== "online" || !isParty) return null;
  const answer = await api.call<VideoAnswer>("GET", `/calendar/appointments/${encodeURIComponent(a.id)}/video`);
  if (!answer.ok || !answer.data.opensAt) return null;
  if (answer.data.url) return { url: answer.data.url, opensAt: null };
  const opens = new Date(answer.data.opensAt);
  // Before the window the dialog says when the link appears; after it, nothing.
  return opens > now ? { url: null, opensAt: clockIn(config().APP_TIMEZONE, opens) } : null;
}

/** The feed's address on this site, as a calendar application will fetch it. */
const feedUrl = (request: Request, token: string) => new URL(`/calendar/feed/${token}.ics`, request.url).href;

export interface FeedStatus {
  active: boolean;
  /** The day it was made, YYYY-MM-DD in the clinic zone. */
  since: string | null;
}

/** Whether the user has a live feed (its address itself is never kept, so never shown again). */
export async function loadFeed(api: Upstream): Promise<FeedStatus> {
  const answer = await api.call<FeedStatusAnswer>("GET", "/calendar/feed");
  if (!answer.ok) return { active: false, since: null };
  const since = answer.data.createdAt ? isoDateIn(config().APP_TIMEZONE, new Date(answer.data.createdAt)) : null;
  return { active: answer.data.active, since };
}

/**
 * The settings form's feed intents. A new address is answered on the page itself, not through a
 * redirect: it is shown this once and kept nowhere, not even in the session cookie.
 */
export async function feedAction(api: Upstream, request: Request, intent: "feedRenew" | "feedRevoke") {
  if (intent === "feedRevoke") {
    const answer = await api.call("DELETE", "/calendar/feed");
    return answer.ok ? { revoked: true as const } : { feedError: true as const };
  }
  const answer = await api.call<RenewedFeed>("POST", "/calendar/feed");
  return answer.ok ? { feedUrl: feedUrl(request, answer.data.token) } : { feedError: true as const };
}
