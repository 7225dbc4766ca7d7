// 'Add to calendar': one appointment as an .ics file, for its patient or its doctor only (the API
// answers 404 to anyone else). A plain link: it works without JavaScript (docs/calendars.md).
import type { Route } from "./+types/appointment-calendar";
import { requireUser, upstream } from "../auth.server.ts";
import { calendarResponse } from "../calendar.server.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient", "doctor")];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const answer = await upstream(request, context).call<string>(
    "GET",
    `/calendar/appointments/${encodeURIComponent(params.id)}`,
  );
  return calendarResponse(answer, "appointment.ics");
}
