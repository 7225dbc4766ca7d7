import { useTranslation } from "../i18n.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/settings";
import { getUser } from "../auth.server.ts";
import { LanguageMenu } from "../components/language-menu.tsx";
import { PageHeader } from "../components/page.tsx";
import { liteChosen, liteCookie, saveDataRequested } from "../lite.server.ts";
import { redirectWithToast } from "../toast.server.ts";

export function loader({ request, context }: Route.LoaderArgs) {
  return { role: getUser(context).role, lite: liteChosen(request), saveData: saveDataRequested(request) };
}

export async function action({ request }: Route.ActionArgs) {
  const on = (await request.formData()).get("lite") === "on";
  return redirectWithToast(
    "/settings",
    { type: "success", message: on ? "common:settings.lite.turnedOn" : "common:settings.lite.turnedOff" },
    { headers: { "Set-Cookie": liteCookie(on) } },
  );
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { role, lite, saveData } = loaderData;
  const profile = role === "doctor" ? "/doctor/profile" : role === "patient" ? "/patient/profile" : null;
  return (
    <section className="max-w-xl space-y-4">
      <PageHeader title={t("settings.title")} />
      <div className="card flex flex-wrap items-center justify-between gap-4">
        <p className="text-sm font-medium">{t("settings.language")}</p>
        <LanguageMenu />
      </div>
      {/* A full page load, so the choice takes effect at once (a client-side submission would keep
          the scripts of this page). */}
      <Form method="post" reloadDocument className="card space-y-3">
        <h2 className="text-sm font-medium">{t("settings.lite.title")}</h2>
        <p className="text-sm text-slate-600">{t("settings.lite.body")}</p>
        {saveData ? <p className="text-sm text-slate-600">{t("settings.lite.saveData")}</p> : null}
        <p className="text-sm font-medium">{t(lite ? "settings.lite.isOn" : "settings.lite.isOff")}</p>
        <button type="submit" name="lite" value={lite ? "off" : "on"} className="btn-secondary">
          {t(lite ? "settings.lite.turnOff" : "settings.lite.turnOn")}
        </button>
      </Form>
      {profile ? (
        <div className="card flex flex-wrap items-center justify-between gap-4">
          <p className="text-sm font-medium">{t("settings.profile")}</p>
          <Link className="btn-secondary" to={profile}>
            {t("nav.profile")}
          </Link>
        </div>
      ) : null}
      <Form method="post" action="/logout" className="card flex flex-wrap items-center justify-between gap-4">
        <p className="text-sm font-medium">{t("settings.session")}</p>
        <button type="submit" className="btn-danger">
          {t("nav.logout")}
        </button>
      </Form>
    </section>
  );
}
