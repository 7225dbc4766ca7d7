// The e-mails the API sends, in English and French, as plain text and simple HTML. User input
// (names, reasons) is escaped in HTML. Codes appear alone on their own line so they are easy to
// read (and for tests, to find).
export type Locale = "en" | "fr";
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const APP = "HealthBook";

export const toLocale = (value: unknown): Locale => (value === "fr" ? "fr" : "en");

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A paragraph is plain text; a code block is shown large in HTML and alone on a line in text. */
type Block = string | { code: string };

function compose(locale: Locale, subject: string, greetingName: string, blocks: Block[]): MailContent {
  const greeting = locale === "fr" ? `Bonjour ${greetingName},` : `Hello ${greetingName},`;
  const signature = locale === "fr" ? `L'équipe ${APP}` : `The ${APP} team`;
  const text = [greeting, ...blocks.map((b) => (typeof b === "string" ? b : `    ${b.code}`)), signature].join("\n\n") + "\n";
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

const name = (username: string | null | undefined, locale: Locale) => username?.trim() || (locale === "fr" ? "cher utilisateur" : "there");

const validity = (locale: Locale) =>
  locale === "fr"
    ? "Ce code est valable 10 minutes et ne peut servir qu'une fois. Ne le communiquez à personne."
    : "This code is valid for 10 minutes and can be used once. Never share it with anyone.";

export function verificationCodeMail(locale: Locale, { username, code }: { username?: string | null; code: string }) {
  return locale === "fr"
    ? compose(locale, `Votre code de vérification ${APP} : ${code}`, name(username, locale), [
        `Voici votre code de vérification pour activer votre compte ${APP} :`,
        { code },
        validity(locale),
        "Si vous n'avez pas créé de compte, ignorez ce message.",
      ])
    : compose(locale, `Your ${APP} verification code: ${code}`, name(username, locale), [
        `Here is your verification code to activate your ${APP} account:`,
        { code },
        validity(locale),
        "If you did not create an account, you can ignore this message.",
      ]);
}

export function profileCodeMail(locale: Locale, { username, code }: { username?: string | null; code: string }) {
  return locale === "fr"
    ? compose(locale, `Code d'accès à votre profil ${APP} : ${code}`, name(username, locale), [
        "Voici le code pour ouvrir votre profil de médecin :",
        { code },
        validity(locale),
        "Si vous n'avez pas demandé ce code, changez votre mot de passe.",
      ])
    : compose(locale, `Your ${APP} profile access code: ${code}`, name(username, locale), [
        "Here is the code to open your doctor profile:",
        { code },
        validity(locale),
        "If you did not ask for this code, change your password.",
      ]);
}

export function resetCodeMail(locale: Locale, { username, code }: { username?: string | null; code: string }) {
  return locale === "fr"
    ? compose(locale, `Réinitialisation de votre mot de passe ${APP} : ${code}`, name(username, locale), [
        "Voici le code pour choisir un nouveau mot de passe :",
        { code },
        validity(locale),
        "Si vous n'avez pas demandé de réinitialisation, ignorez ce message : votre mot de passe reste inchangé.",
      ])
    : compose(locale, `Your ${APP} password reset code: ${code}`, name(username, locale), [
        "Here is the code to choose a new password:",
        { code },
        validity(locale),
        "If you did not ask for a reset, ignore this message: your password stays unchanged.",
      ]);
}

/** Sent instead of a code when someone registers with an address that already has an account. */
export function registrationAttemptMail(locale: Locale, { username }: { username?: string | null }) {
  return locale === "fr"
    ? compose(locale, `Tentative d'inscription avec votre adresse ${APP}`, name(username, locale), [
        `Quelqu'un a essayé de créer un compte ${APP} avec votre adresse e-mail. Votre compte existe déjà et n'a pas été modifié.`,
        "Si c'était vous, connectez-vous avec votre mot de passe, ou utilisez « Mot de passe oublié » sur la page de connexion.",
        "Si ce n'était pas vous, vous n'avez rien à faire.",
      ])
    : compose(locale, `Someone tried to register with your ${APP} address`, name(username, locale), [
        `Someone tried to create a ${APP} account with your e-mail address. Your account already exists and has not been changed.`,
        "If it was you, sign in with your password, or use 'Forgot password' on the login page.",
        "If it was not you, there is nothing to do.",
      ]);
}

export function doctorApprovedMail(locale: Locale, { username }: { username?: string | null }) {
  return locale === "fr"
    ? compose(locale, `Votre compte médecin ${APP} est vérifié`, name(username, locale), [
        "Bonne nouvelle : votre inscription en tant que médecin a été vérifiée.",
        "Vous apparaissez désormais dans la recherche des patients et pouvez confirmer des rendez-vous et répondre aux demandes ouvertes.",
      ])
    : compose(locale, `Your ${APP} doctor account is verified`, name(username, locale), [
        "Good news: your registration as a doctor has been verified.",
        "Patients can now find you in search, and you can confirm appointments and answer open requests.",
      ]);
}

export function doctorRejectedMail(locale: Locale, { username, reason }: { username?: string | null; reason?: string | null }) {
  const why = reason?.trim();
  return locale === "fr"
    ? compose(locale, `Votre inscription de médecin ${APP} n'a pas été acceptée`, name(username, locale), [
        "Nous n'avons pas pu vérifier votre inscription en tant que médecin.",
        ...(why ? [`Motif : ${why}`] : []),
        "Si vous pensez qu'il s'agit d'une erreur, répondez à ce message avec votre numéro d'ordre.",
      ])
    : compose(locale, `Your ${APP} doctor registration was not accepted`, name(username, locale), [
        "We could not verify your registration as a doctor.",
        ...(why ? [`Reason: ${why}`] : []),
        "If you think this is a mistake, reply to this message with your medical serial number.",
      ]);
}
