// The cities of a country as JSON, for the country/city pair's in-place load with JavaScript.
import type { Route } from "./+types/cities";
import { upstream } from "../auth.server.ts";
import { citiesOf } from "../location.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const cities = await citiesOf(upstream(request, context), Number(params.countryId) || null);
  return Response.json(cities, { headers: { "Cache-Control": "private, max-age=300" } });
}
