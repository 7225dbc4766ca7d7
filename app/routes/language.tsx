import { redirect } from "react-router";
import type { Route } from "./+types/language";
import { safeRedirect, upstream } from "../auth.server.ts";
import { isLanguage } from "../i18n.ts";
import { languageCookie } from "../i18n.server.ts";
import { readSession } from "../session.server.ts";

export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const language = form.get("lng");
  const to = safeRedirect(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(to);
  // A signed-in user's mail follows the language they chose (docs/mail.md). The page changes
  // language whatever the API answers: the cookie alone decides what is shown.
  const { token } = await readSession(request);
  if (token) await upstream(request, context, { token, language }).call("PUT", "/settings", { body: { language } });
  return redirect(to, { headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}
