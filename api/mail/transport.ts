// Which way mail leaves, read from the configuration (docs/mail.md). Kept apart from the mailers so
// the web tier's configuration can check it without loading nodemailer.
/**
 * MAIL_TRANSPORT: `smtp` (needs SMTP_URL), `outbox` (mail stays in the database outbox, nothing is
 * sent or printed, until a later start with SMTP), `console` (development: printed and written to
 * files). Unset: smtp with SMTP_URL, else console, except in production, which must choose.
 * Throws a one-line message that starts with the variable's name.
 */
export type MailTransport = "smtp" | "outbox" | "console";
export function mailTransportSetting(env: { MAIL_TRANSPORT?: string; SMTP_URL?: string; NODE_ENV?: string }): MailTransport {
  const production = env.NODE_ENV === "production";
  // `outbox` keeps mail until there is a way to send it: once SMTP_URL is given (a later start, or
  // the container image, whose default is outbox), the queued mail and the new mail are sent.
  const setting = env.MAIL_TRANSPORT === "outbox" && env.SMTP_URL ? "smtp" : env.MAIL_TRANSPORT;
  const chosen = setting || (env.SMTP_URL ? "smtp" : production ? undefined : "console");
  if (!chosen) {
    throw new Error("SMTP_URL is required in production (or set MAIL_TRANSPORT=outbox to keep mail in the database without sending it)");
  }
  if (chosen !== "smtp" && chosen !== "outbox" && chosen !== "console") throw new Error(`MAIL_TRANSPORT must be smtp, outbox or console (got "${chosen}")`);
  if (chosen === "smtp" && !env.SMTP_URL) throw new Error("MAIL_TRANSPORT smtp needs SMTP_URL");
  // The console transport prints verification and reset codes: never in production.
  if (chosen === "console" && production) throw new Error("MAIL_TRANSPORT console prints codes to the log and is refused in production");
  return chosen;
}
