// What the API's own entry (api/main.ts) and the web server (server.ts) share: the API opened on its
// data directory, and a graceful shutdown.
import path from "node:path";
import type { Server } from "node:http";
import { createApi } from "./app.ts";
import { openDatabase } from "./db/index.ts";
import { seed } from "./db/seed.ts";
import { createMailer } from "./mail/index.ts";
import { watchDatabasePool } from "./metrics.ts";

/** PostgreSQL at databaseUrl (else PGlite in dataDir/db), seeded, and the API on it; without SMTP, mail goes to dataDir/outbox. */
export async function openApi(options: { databaseUrl?: string; dataDir: string; demo: boolean; smtpUrl?: string; mailFrom?: string }) {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: path.join(options.dataDir, "db") });
  await seed(database.db, { demo: options.demo });
  watchDatabasePool(database);
  const mailer = createMailer({ smtpUrl: options.smtpUrl, from: options.mailFrom, outboxDir: path.join(options.dataDir, "outbox") });
  return { database, api: createApi({ db: database.db, mailer }) };
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
