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
import { emailToAdd, type MailSettings, type SettingsChange } from "../../contract/settings.ts";
import { SmsSettings } from "../components/sms-settings.tsx";
import { AddEmail } from "../components/email-settings.tsx";
import { readCode } from "../components/code-input.tsx";
import { formatPhone } from "../phone.server.ts";
import { upstreamErrorKey } from "../upstream-errors.ts";
import type { CodeRequest } from "../../contract/auth.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const role = getUser(context).role;
  // Admins have no appointments, so no calendar feed and no appointment mail.
  const api = upstream(request, context);
  const [feed, mail] =
    role === "admin" ? [null, null] : await Promise.all([loadFeed(api), api.get<MailSettings>("/settings")]);
  return {
    role,
    lite: liteChosen(request),
    saveData: saveDataRequested(request),
    feed,
    mail,
    phone: formatPhone(mail?.phone ?? null),
  };
}

/**
 * The text messages card's forms (docs/sms.md): send a code to the phone, verify it, SMS on or off.
 * A sent code or a refused one answers on the page (the code form stays); the rest redirect.
 */
async function smsAction(api: ReturnType<typeof upstream>, intent: string, form: FormData) {
  if (intent === "phoneCode") {
    const sent = await api.call("POST", "/settings/phone/code");
    return data(
      { phoneCodeSent: sent.ok, phoneError: sent.ok ? null : upstreamErrorKey(sent, "code", "common:sms.sendFailed") },
      { status: sent.ok ? 200 : sent.status },
    );
  }
  if (intent === "verify") {
    const code = readCode(form);
    if (!/^\d{6}$/.test(code))
      return data({ phoneCodeSent: true, phoneError: "auth:validation.codeIncomplete" }, { status: 400 });
    const verified = await api.call("POST", "/settings/phone/verify", {
      body: { otpCode: code } satisfies CodeRequest,
    });
    if (!verified.ok)
      return data(
        { phoneCodeSent: true, phoneError: upstreamErrorKey(verified, "code", "common:sms.verifyFailed") },
        { status: verified.status },
      );
    return redirectWithToast("/settings", { type: "success", message: "common:sms.phoneVerified" });
  }
  const on = form.get("sms") === "on";
  const saved = await api.call("PUT", "/settings", { body: { sms: on } satisfies SettingsChange });
  if (!saved.ok)
    return redirectWithToast("/settings", {
      type: "error",
      message: upstreamErrorKey(saved, "code", "common:sms.failed"),
    });
  return redirectWithToast("/settings", {
    type: "success",
    message: on ? "common:sms.turnedOn" : "common:sms.turnedOff",
  });
}

/**
 * The e-mail card's forms, for a patient who has none (docs/sms.md): send a code to the address
 * typed, then check it. Each answers on the page with the address, so the next form carries it.
 */
async function emailAction(api: ReturnType<typeof upstream>, intent: string, form: FormData) {
  const typed = String(form.get("email") ?? "").trim();
  const address = emailToAdd.safeParse({ email: typed });
  if (!address.success)
    return data(
      { emailSentTo: null, emailTyped: typed.slice(0, 254), emailFieldError: "auth:validation.emailInvalid" },
      { status: 400 },
    );
  const email = address.data.email;
  if (intent === "emailCode") {
    const sent = await api.call("POST", "/settings/email/code", { body: { email } });
    if (!sent.ok)
      return data(
        {
          emailSentTo: null,
          emailTyped: email,
          emailError: upstreamErrorKey(sent, "code", "common:settings.email.sendFailed"),
        },
        { status: sent.status },
      );
    return { emailSentTo: email };
  }
  const code = readCode(form);
  if (!/^\d{6}$/.test(code))
    return data({ emailSentTo: email, emailError: "auth:validation.codeIncomplete" }, { status: 400 });
  const verified = await api.call("POST", "/settings/email/verify", { body: { email, otpCode: code } });
  if (!verified.ok)
    return data(
      { emailSentTo: email, emailError: upstreamErrorKey(verified, "code", "common:settings.email.verifyFailed") },
      { status: verified.status },
    );
  return redirectWithToast("/settings", { type: "success", message: "common:settings.email.added" });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  // Each form names what it changes; anything else (an admin's feed, which they do not have, a
  // forged intent) changes nothing, rather than falling through to another form's change.
  const admin = getUser(context).role === "admin";
  if ((intent === "feedRenew" || intent === "feedRevoke") && !admin) {
    const result = await feedAction(upstream(request, context), request, intent);
    if ("revoked" in result)
      return redirectWithToast("/settings", { type: "success", message: "common:calendar.feed.revoked" });
    return result;
  }
  if (intent === "mail" && !admin) {
    // An unticked box is not sent: both choices travel together, so absent means off.
    const saved = await upstream(request, context).call("PUT", "/settings", {
      body: {
        notifications: form.get("notifications") === "on",
        reminders: form.get("reminders") === "on",
      } satisfies SettingsChange,
    });
    return redirectWithToast(
      "/settings",
      saved.ok
        ? { type: "success", message: "common:settings.mail.saved" }
        : { type: "error", message: "common:settings.mail.failed" },
    );
  }
  if ((intent === "phoneCode" || intent === "verify" || intent === "sms") && !admin)
    return smsAction(upstream(request, context), intent, form);
  if ((intent === "emailCode" || intent === "emailVerify") && getUser(context).role === "patient")
    return emailAction(upstream(request, context), intent, form);
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
  const { role, lite, saveData, feed, mail, phone } = loaderData;
  const feedResult = actionData && ("feedUrl" in actionData || "feedError" in actionData) ? actionData : null;
  const phoneResult = actionData && "phoneCodeSent" in actionData ? actionData : null;
  const emailResult = actionData && "emailSentTo" in actionData ? actionData : null;
  // A patient who signed up with a phone has no e-mail: no e-mail choices, a card to add one instead.
  const phoneOnly = role === "patient" && mail !== null && mail.email === null;
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
      {phoneOnly ? (
        <AddEmail
          sentTo={emailResult?.emailSentTo ?? null}
          typed={emailResult && "emailTyped" in emailResult ? (emailResult.emailTyped ?? null) : null}
          fieldError={emailResult && "emailFieldError" in emailResult ? emailResult.emailFieldError : null}
          error={emailResult && "emailError" in emailResult ? emailResult.emailError : null}
        />
      ) : mail ? (
        <Form method="post" className="card space-y-3">
          <h2 className="text-sm font-medium">{t("settings.mail.title")}</h2>
          <p className="text-sm text-slate-600">
            {t("settings.mail.body", { language: t(`settings.mail.languages.${mail.language}`) })}
          </p>
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
      {mail && role === "patient" ? (
        <SmsSettings
          phone={phone}
          phoneVerified={mail.phoneVerified}
          onlyChannel={phoneOnly}
          sms={mail.sms}
          available={mail.smsAvailable}
          profile={profile}
          codeSent={Boolean(phoneResult?.phoneCodeSent)}
          error={phoneResult?.phoneError}
        />
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
