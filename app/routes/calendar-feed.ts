// A user's private calendar feed (docs/calendars.md): fetched by a calendar application with the
// secret in the URL and no session. The API checks the secret and guards against guessing (429
// passes through); the browser's address is forwarded for that.
import type { Route } from "./+types/calendar-feed";
import { upstream } from "../auth.server.ts";
import { calendarResponse } from "../calendar.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return calendarResponse(
    await upstream(request, context).call<string>("GET", `/calendar/feed/${encodeURIComponent(params.file)}`),
  );
}
