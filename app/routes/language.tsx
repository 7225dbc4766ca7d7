import { redirect } from "react-router";
import type { Route } from "./+types/language";
import { safeRedirect } from "../auth.server.ts";
import { isLanguage } from "../i18n.ts";
import { languageCookie } from "../i18n.server.ts";

export function loader() {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const language = form.get("lng");
  const to = safeRedirect(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(to);
  return redirect(to, { headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}
