// How mail leaves (docs/mail.md): over SMTP, or in development to the console and files. Requests
// never call these directly: they queue mail in the outbox (outbox.ts) and its worker calls them.
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { MailAttachment } from "../db/schema.ts";

export type { MailAttachment };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with it: an appointment's calendar entry (.ics). */
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from?: string; outboxDir?: string }): Mailer {
  const from = options.from || "Health Appointments <no-reply@localhost>";
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        const { attachments = [], ...rest } = message;
        await transport.sendMail({
          from,
          ...rest,
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        });
      },
    };
  }
  const outboxDir = options.outboxDir;
  return {
    async send(message) {
      // Development only: the outbox exists so a developer can read codes without an SMTP server.
      console.log(`[mail] to=${message.to} subject="${message.subject}"\n${message.text}`);
      if (outboxDir) {
        await fs.mkdir(outboxDir, { recursive: true });
        const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.to.replace(/[^a-z0-9@.]/gi, "_")}.json`;
        await fs.writeFile(path.join(outboxDir, name), JSON.stringify({ from, ...message }, null, 2));
      }
    },
  };
}

/** A mailer that keeps messages in memory, for tests. */
export function memoryMailer(): Mailer & { messages: MailMessage[]; lastCodeFor(email: string): string | undefined } {
  const messages: MailMessage[] = [];
  return {
    messages,
    async send(message) {
      messages.push(message);
    },
    lastCodeFor(email) {
      const m = messages.filter((x) => x.to.toLowerCase() === email.toLowerCase()).at(-1);
      return m?.text.match(/\b(\d{6})\b/)?.[1];
    },
  };
}
