// The wire of /calendar (docs/calendars.md): an appointment's video link, and the user's private
// feed. The .ics answers (an appointment's file, the feed itself) are text/calendar, not JSON; the
// routes take no body or query, only the appointment's id or the feed's secret in the path.
import { z } from "zod";

/** GET /calendar/appointments/{id}/video: the room's address inside its window, the window when there is a room. */
export const videoLink = z.object({
  url: z.string().nullable(),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
});
export type VideoLink = z.infer<typeof videoLink>;

/** GET /calendar/feed: whether the user has a live feed, and since when (its address is never shown again). */
export const feedStatus = z.object({ active: z.boolean(), createdAt: z.string().nullable() });
export type FeedStatusAnswer = z.infer<typeof feedStatus>;

/** POST /calendar/feed (201): a new secret, shown this once; the previous address stops working. */
export const renewedFeed = z.object({ token: z.string(), createdAt: z.string() });
export type RenewedFeed = z.infer<typeof renewedFeed>;
