// A real SMTP server on 127.0.0.1 for the mail tests: keeps what it accepts (envelope recipients and
// the raw message), and can be told to refuse the next messages as a server in trouble would.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** `delayMs`: how long the server takes to accept a message, as a distant server does. */
export async function startSmtpServer(options: { delayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
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
        received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Mails accepted for `email`. */
    to: (email: string) => received.filter((m) => m.to.includes(email.toLowerCase())),
    /** The next `count` messages are refused with a temporary error (451). */
    refuseNext(count: number) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
