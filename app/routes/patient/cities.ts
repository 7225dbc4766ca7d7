// The cities of a country as JSON, for the country/city pair's in-place load with JavaScript.
import type { Route } from "./+types/cities";
import { upstream } from "../../auth.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const answer = await upstream(request, context).call<{ id: number; name: string }[]>("GET", `/location/city/${encodeURIComponent(params.countryId)}`);
  return Response.json(answer.ok ? answer.data : [], { headers: { "Cache-Control": "private, max-age=300" } });
}
