// A real SMTP server on 127.0.0.1 for the tests (API tests, and the browser tests' world in
// tests/e2e/server.ts): keeps what it accepts (envelope recipients and the raw message), or hands
// each message to `onMessage`, and can be told to refuse the next messages as a server in trouble would.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** `raw` is the message as received, decoded as latin1 (byte for byte). */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A received message read by mailparser: headers, text and HTML decoded, attachments apart. */
export const parseMail = (mail: ReceivedMail): Promise<ParsedMail> => simpleParser(Buffer.from(mail.raw, "latin1"));

/**
 * `port`: 0 (default) for any free one. `delayMs`: how long the server takes to accept a message, as
 * a distant one does. `onMessage`: takes each accepted message instead of the `received` list; the
 * message is accepted once it has finished, and refused if it throws.
 */
export async function startSmtpServer(
  options: { port?: number; delayMs?: number; onMessage?: (mail: ReceivedMail) => void | Promise<void> } = {},
) {
  const received: ReceivedMail[] = [];
  const keep = options.onMessage ?? ((mail: ReceivedMail) => void received.push(mail));
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", async () => {
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        if (refusals > 0) {
          refusals--;
          const error = new Error("Service temporarily unavailable") as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        try {
          await keep({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString("latin1"),
          });
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    server,
    received,
    /** Mails accepted for `email`. */
    to: (email: string) => received.filter((m) => m.to.includes(email.toLowerCase())),
    /** Mails accepted for `email`, parsed. */
    parsedTo: (email: string) => Promise.all(received.filter((m) => m.to.includes(email.toLowerCase())).map(parseMail)),
    /** The next `count` messages are refused with a temporary error (451). */
    refuseNext(count: number) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
