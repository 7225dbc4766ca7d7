// What the API's own entry (api/main.ts) and the web server (server.ts) share: the API opened on its
// data directory, and a graceful shutdown.
import path from "node:path";
import type { Server } from "node:http";
import { createApi } from "./app.ts";
import { openDatabase } from "./db/index.ts";
import { seed } from "./db/seed.ts";
import { createMailer } from "./mail/index.ts";
import type { MailTransport } from "./mail/transport.ts";
import { outboxMailer, startOutboxWorker } from "./mail/outbox.ts";
import type { TrustProxy } from "./trust-proxy.ts";
import { watchDatabasePool } from "./metrics.ts";

/**
 * PostgreSQL at databaseUrl (else PGlite in dataDir/db), seeded, the API on it, and the mail outbox
 * worker (none with MAIL_TRANSPORT=outbox; the console transport also writes dataDir/outbox files).
 * `close` stops the worker, then the database.
 */
export async function openApi(options: {
  databaseUrl?: string;
  dataDir: string;
  demo: boolean;
  mailTransport: MailTransport;
  smtpUrl?: string;
  mailFrom?: string;
  trustProxy?: TrustProxy;
}) {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: path.join(options.dataDir, "db") });
  await seed(database.db, { demo: options.demo });
  watchDatabasePool(database);
  const worker =
    options.mailTransport === "outbox"
      ? undefined
      : startOutboxWorker({
          db: database.db,
          transport: createMailer({
            smtpUrl: options.mailTransport === "smtp" ? options.smtpUrl : undefined,
            from: options.mailFrom,
            outboxDir: path.join(options.dataDir, "outbox"),
          }),
        });
  if (!worker) console.log("Mail is kept in the database outbox (MAIL_TRANSPORT=outbox): nothing is sent until a start with SMTP_URL");
  const mailer = outboxMailer(database.db, () => worker?.wake());
  const api = createApi({ db: database.db, mailer, trustProxy: options.trustProxy });
  return {
    database,
    api,
    close: async () => {
      await worker?.stop();
      await database.close();
    },
  };
}

/** On SIGTERM or SIGINT: stop accepting, let in-flight requests finish, then `close` (the database) and exit. */
export function shutDownGracefully(server: Server, close: () => Promise<void>) {
  let closing = false;
  // A proxy's keep-alive connections would carry new requests here for ever and the drain would
  // never end (killed after 10 s, requests in flight lost): once closing, every answer closes its
  // connection, so the proxy sends the next requests to another instance.
  server.prependListener("request", (_req, res) => {
    if (closing && !res.headersSent) res.setHeader("Connection", "close");
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      console.log(`${signal}: shutting down`);
      server.close(async () => {
        await close();
        process.exit(0);
      });
      server.closeIdleConnections();
      setTimeout(() => process.exit(1), 10_000).unref();
    });
  }
}
