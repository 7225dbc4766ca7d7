// 'Download my data': the doctor's data (GET /doctor/export) as a JSON attachment, behind the
// same code gate as the profile.
import { redirect } from "react-router";
import type { Route } from "./+types/profile-export";
import { getUser, upstream } from "../../auth.server.ts";
import { profileAccess } from "./profile-gate.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  if (!(await profileAccess(request, user.id)).valid) throw redirect("/doctor/profile");
  const body = await upstream(request, context).get<unknown>("/doctor/export");
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
