import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { logoutRedirect, readSession } from "../../session.server.ts";
import { upstream } from "../../auth.server.ts";

export function loader() {
  return redirect("/");
}

/** Revokes the upstream token, then forgets the session. */
export async function action({ request, context }: Route.ActionArgs) {
  const { token } = await readSession(request);
  if (token) await upstream(request, context, { token }).call("POST", "/auth/logout");
  return logoutRedirect(request);
}
