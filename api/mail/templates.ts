// The e-mails the API sends, as plain text and simple HTML, in the recipient's language. Their texts
// live in locales/{en,fr}/mail.json, like the screens'. User input (names, reasons) is escaped in
// HTML. Codes appear alone on their own line so they are easy to read (and for tests, to find).
import { createInstance, type TOptions } from "i18next";
import type { Language } from "../../contract/constants.ts";
import en from "../../locales/en/mail.json" with { type: "json" };
import fr from "../../locales/fr/mail.json" with { type: "json" };

export type Locale = Language;
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const APP = "HealthBook";

export const toLocale = (value: unknown): Locale => (value === "fr" ? "fr" : "en");

const texts = createInstance();
texts.init({
  resources: { en: { mail: en }, fr: { mail: fr } },
  ns: ["mail"],
  defaultNS: "mail",
  fallbackLng: "en",
  // Mail texts are escaped where they go into HTML (compose), never inside the translation.
  interpolation: { escapeValue: false, defaultVariables: { app: APP } },
  initAsync: false,
  returnNull: false,
});

/** The mail text `key` in `locale`. */
export const mailText = (locale: Locale, key: string, values: TOptions = {}) =>
  texts.getFixedT(locale)(key, values) as string;

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** A paragraph is plain text; a code block is shown large in HTML and alone on a line in text. */
export type Block = string | { code: string };

export function compose(
  locale: Locale,
  subject: string,
  username: string | null | undefined,
  blocks: Block[],
): MailContent {
  const greeting = mailText(locale, "greeting", { name: username?.trim() || mailText(locale, "someone") });
  const signature = mailText(locale, "signature");
  const text =
    [greeting, ...blocks.map((b) => (typeof b === "string" ? b : `    ${b.code}`)), signature].join("\n\n") + "\n";
  const body = blocks
    .map((b) =>
      typeof b === "string"
        ? `<p>${escapeHtml(b)}</p>`
        : `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;font-family:monospace">${escapeHtml(b.code)}</p>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:sans-serif;color:#1e293b;max-width:560px;margin:0 auto;padding:16px">
<p>${escapeHtml(greeting)}</p>
${body}
<p>${escapeHtml(signature)}</p>
</body></html>
`;
  return { subject, text, html };
}

type CodeMail = "verification" | "profileCode" | "reset";
const codeMail =
  (kind: CodeMail) =>
  (locale: Locale, { username, code }: { username?: string | null; code: string }) =>
    compose(locale, mailText(locale, `${kind}.subject`, { code }), username, [
      mailText(locale, `${kind}.intro`),
      { code },
      mailText(locale, "codeValidity"),
      mailText(locale, `${kind}.ignore`),
    ]);

export const verificationCodeMail = codeMail("verification");
export const profileCodeMail = codeMail("profileCode");
export const resetCodeMail = codeMail("reset");

/**
 * A new receptionist's invitation (docs/product.md, The front desk): the code sets their password
 * on the 'forgot password' page's second step, /reset-password.
 */
export function staffInvitationMail(
  locale: Locale,
  { username, code, email, link }: { username: string; code: string; email: string; link: string },
) {
  const t = (key: string) => mailText(locale, `staffInvitation.${key}`, { email, link });
  return compose(locale, t("subject"), username, [t("intro"), t("how"), { code }, t("validity")]);
}

/** Sent instead of a code when someone registers with an address that already has an account. */
export function registrationAttemptMail(locale: Locale, { username }: { username?: string | null }) {
  const t = (key: string) => mailText(locale, `registrationAttempt.${key}`);
  return compose(locale, t("subject"), username, [t("what"), t("ifYou"), t("ifNot")]);
}

export function doctorApprovedMail(locale: Locale, { username }: { username?: string | null }) {
  const t = (key: string) => mailText(locale, `doctorApproved.${key}`);
  return compose(locale, t("subject"), username, [t("news"), t("next")]);
}

export function doctorRejectedMail(
  locale: Locale,
  { username, reason }: { username?: string | null; reason?: string | null },
) {
  const why = reason?.trim();
  const t = (key: string, values?: TOptions) => mailText(locale, `doctorRejected.${key}`, values);
  return compose(locale, t("subject"), username, [
    t("news"),
    ...(why ? [t("reason", { reason: why })] : []),
    t("next"),
  ]);
}
