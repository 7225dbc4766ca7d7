// The settings page's text messages card (docs/sms.md): the profile's phone, its verification by a
// code sent by SMS (send, then type the six digits), and SMS on or off once it is verified. Plain
// forms: all of it works without JavaScript.
import { Form, Link } from "react-router";
import { useTranslation } from "../i18n.ts";
import { CodeForm } from "./code-input.tsx";
import { FormAlert } from "./form-alert.tsx";
import { SubmitButton } from "./submit-button.tsx";

export interface SmsCardProps {
  /** The phone in international format, or null when the profile has none. */
  phone: string | null;
  phoneVerified: boolean;
  /** The account has no e-mail: text messages are how it hears from the clinic. */
  onlyChannel: boolean;
  sms: boolean;
  available: boolean;
  profile: string | null;
  /** After 'send me a code': the code form shows, with what the last try said. */
  codeSent: boolean;
  error?: string | null;
}

export function SmsSettings({
  phone,
  phoneVerified,
  onlyChannel,
  sms,
  available,
  profile,
  codeSent,
  error,
}: SmsCardProps) {
  const { t } = useTranslation();
  return (
    <section className="card space-y-3" aria-labelledby="sms-title">
      <h2 id="sms-title" className="text-sm font-medium">
        {t("sms.title")}
      </h2>
      {!available ? (
        <p className="text-sm text-slate-600">{t("sms.unavailable")}</p>
      ) : !phone ? (
        <p className="text-sm text-slate-600">
          {t("sms.noPhone")}{" "}
          {profile ? (
            <Link className="underline" to={profile}>
              {t("sms.addPhone")}
            </Link>
          ) : null}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">{t(onlyChannel ? "sms.onlyChannel" : "sms.body")}</p>
          <p className="text-sm">
            <span className="font-medium break-all">{phone}</span>{" "}
            <span className={phoneVerified ? "text-emerald-700" : "text-amber-700"}>
              {t(phoneVerified ? "sms.verified" : "sms.unverified")}
            </span>
          </p>
          <p className="text-sm text-slate-600">{t(phoneVerified ? "sms.signsIn" : "sms.willSignIn")}</p>
          {phoneVerified ? (
            <Form method="post" className="space-y-3">
              <p className="text-sm font-medium">{t(sms ? "sms.isOn" : "sms.isOff")}</p>
              <input type="hidden" name="intent" value="sms" />
              <SubmitButton className="btn-secondary" name="sms" value={sms ? "off" : "on"}>
                {t(sms ? "sms.turnOff" : "sms.turnOn")}
              </SubmitButton>
            </Form>
          ) : (
            <>
              {codeSent ? (
                <div className="space-y-2">
                  <p className="text-sm">{t("sms.codeSent", { phone })}</p>
                  <CodeForm error={error}>{t("sms.verify")}</CodeForm>
                </div>
              ) : (
                <FormAlert message={error} />
              )}
              <Form method="post">
                <SubmitButton className="btn-secondary" name="intent" value="phoneCode">
                  {t(codeSent ? "sms.resend" : "sms.sendCode")}
                </SubmitButton>
              </Form>
            </>
          )}
        </>
      )}
    </section>
  );
}
