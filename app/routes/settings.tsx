import { useTranslation } from "../i18n.ts";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/settings";
import { getUser, upstream } from "../auth.server.ts";
import { feedAction, loadFeed } from "../calendar.server.ts";
import { CalendarFeed } from "../components/calendar-feed.tsx";
import { LanguageMenu } from "../components/language-menu.tsx";
import { PageHeader } from "../components/page.tsx";
import { liteChosen, liteCookie, saveDataRequested } from "../lite.server.ts";
import { redirectWithToast } from "../toast.server.ts";
import type { MailSettings, SettingsChange } from "../../contract/settings.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const role = getUser(context).role;
  // Admins have no appointments, so no calendar feed and no appointment mail.
  const api = upstream(request, context);
  const [feed, mail] = role === "admin" ? [null, null] : await Promise.all([loadFeed(api), api.get<MailSettings>("/settings")]);
  return { role, lite: liteChosen(request), saveData: saveDataRequested(request), feed, mail };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  // Each form names what it changes; anything else (an admin's feed, which they do not have, a
  // forged intent) changes nothing, rather than falling through to another form's change.
  const admin = getUser(context).role === "admin";
  if ((intent === "feedRenew" || intent === "feedRevoke") && !admin) {
    const result = await feedAction(upstream(request, context), request, intent);
    if ("revoked" in result) return redirectWithToast("/settings", { type: "success", message: "common:calendar.feed.revoked" });
    return result;
  }
  if (intent === "mail" && !admin) {
    // An unticked box is not sent: both choices travel together, so absent means off.
    const saved = await upstream(request, context).call("PUT", "/settings", {
      body: { notifications: form.get("notifications") === "on", reminders: form.get("reminders") === "on" } satisfies SettingsChange,
    });
    return redirectWithToast("/settings", saved.ok ? { type: "success", message: "common:settings.mail.saved" } : { type: "error", message: "common:settings.mail.failed" });
  }
  if (intent !== "lite") throw data(null, { status: 400 });
  const on = form.get("lite") === "on";
  return redirectWithToast(
    "/settings",
    { type: "success", message: on ? "common:settings.lite.turnedOn" : "common:settings.lite.turnedOff" },
    { headers: { "Set-Cookie": liteCookie(on) } },
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { role, lite, saveData, feed, mail } = loaderData;
  const feedResult = actionData && ("feedUrl" in actionData || "feedError" in actionData) ? actionData : null;
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
        <input type="hidden" name="intent" value="lite" />
        <button type="submit" name="lite" value={lite ? "off" : "on"} className="btn-secondary">
          {t(lite ? "settings.lite.turnOff" : "settings.lite.turnOn")}
        </button>
      </Form>
      {mail ? (
        <Form method="post" className="card space-y-3">
          <h2 className="text-sm font-medium">{t("settings.mail.title")}</h2>
          <p className="text-sm text-slate-600">{t("settings.mail.body", { language: t(`settings.mail.languages.${mail.language}`) })}</p>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="notifications" defaultChecked={mail.notifications} className="mt-1" />
            <span>{t("settings.mail.notifications")}</span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="reminders" defaultChecked={mail.reminders} className="mt-1" />
            <span>{t("settings.mail.reminders")}</span>
          </label>
          <button type="submit" name="intent" value="mail" className="btn-secondary">
            {t("settings.mail.save")}
          </button>
        </Form>
      ) : null}
      {feed ? (
        <CalendarFeed
          active={feed.active}
          since={feed.since}
          feedUrl={feedResult && "feedUrl" in feedResult ? feedResult.feedUrl : undefined}
          failed={Boolean(feedResult && "feedError" in feedResult)}
        />
      ) : null}
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
