// 'Download my data': GET /patient/export as a JSON attachment (docs/product.md).
import type { Route } from "./+types/export";
import { requireUser, upstream } from "../../auth.server.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const body = await upstream(request, context).get<unknown>("/patient/export");
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-health-data-${new Date().toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
