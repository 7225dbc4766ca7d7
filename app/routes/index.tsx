import { redirect } from "react-router";
import type { Route } from "./+types/index";
import { readSession, roleHome } from "../session.server.ts";

/** docs/product.md, Roles and homes: each role has a home; nobody signed in goes to /login. */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await readSession(request);
  return redirect(roleHome(user?.role));
}
