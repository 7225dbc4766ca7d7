// The settings page's card for a patient who signed up with a phone and no e-mail (docs/sms.md,
// Signing in with a phone): add an address, proved by a 6-digit code mailed to it. Until then their
// notices, reminders and codes come by SMS only, and the card says so. Plain forms: all of it works
// without JavaScript.
import { Form, Link } from "react-router";
import { useTranslation } from "../i18n.ts";
import { CodeForm } from "./code-input.tsx";
import { Field, FormAlert } from "./forms.tsx";
import { SubmitButton } from "./submit-button.tsx";

export interface EmailCardProps {
  /** After 'send me a code': the address the code went to, and the code form shows. */
  sentTo: string | null;
  /** The address typed, kept when it was refused. */
  typed: string | null;
  /** What the address field says is wrong (a translation key). */
  fieldError: string | null;
  /** What the last send or check said (a translation key). */
  error: string | null;
}

export function AddEmail({ sentTo, typed, fieldError, error }: EmailCardProps) {
  const { t } = useTranslation();
  return (
    <section className="card space-y-3" aria-labelledby="email-title">
      <h2 id="email-title" className="text-sm font-medium">
        {t("settings.email.title")}
      </h2>
      <p className="text-sm text-slate-600">{t("settings.email.body")}</p>
      {sentTo ? (
        <div className="space-y-3">
          <p className="text-sm break-words">{t("settings.email.codeSent", { email: sentTo })}</p>
          <CodeForm error={error} intent="emailVerify" extra={<input type="hidden" name="email" value={sentTo} />}>
            {t("settings.email.verify")}
          </CodeForm>
          <div className="flex flex-wrap items-center gap-3">
            <Form method="post">
              <input type="hidden" name="email" value={sentTo} />
              <SubmitButton className="btn-secondary" name="intent" value="emailCode">
                {t("settings.email.resend")}
              </SubmitButton>
            </Form>
            <Link className="text-sm underline" to="/settings">
              {t("settings.email.other")}
            </Link>
          </div>
        </div>
      ) : (
        <Form method="post" className="space-y-3" noValidate>
          <FormAlert message={error} />
          <Field
            id="settings-email"
            label={t("settings.email.label")}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            required
            defaultValue={typed ?? ""}
            errors={fieldError ? [fieldError] : null}
          />
          <SubmitButton className="btn-secondary" name="intent" value="emailCode">
            {t("settings.email.send")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
