// What the API's own entry (api/main.ts) and the web server (server.ts) share: the API opened on its
// data directory, and a graceful shutdown.
import type { Server } from "node:http";
import type { Config } from "../config.ts";
import { createApi } from "./app.ts";
import { serveControl } from "./admin/control.ts";
import { openDatabase } from "./db/index.ts";
import { analyzeNeverAnalyzed, keepTidy } from "./db/upkeep.ts";
import { seed } from "./seed.ts";
import { createMailer } from "./mail/index.ts";
import { outboxMailer, startOutboxWorker } from "./mail/outbox.ts";
import { startReminderWorker } from "./reminders.ts";
import { watchMailOutbox } from "./mail/outbox-metrics.ts";
import { watchDatabasePool } from "./metrics.ts";
import { consoleSender, recordReceipt, startSmsWorker } from "./sms/outbox.ts";
import { watchSmsOutbox } from "./sms/outbox-metrics.ts";
import { smppSender } from "./sms/smpp.ts";

/**
 * PostgreSQL at DATABASE_URL (else PGlite in DATA_DIR/db), seeded, the API on it, the mail
 * outbox worker (none with MAIL_TRANSPORT=outbox; the console transport also writes
 * DATA_DIR/outbox files) and the reminder worker, which queues reminders in the outbox whatever
 * the transport, and the database's upkeep (db/upkeep.ts: PGlite's statistics and vacuum, and on
 * PostgreSQL the statistics of the tables its autovacuum never analysed). Closing the database stops
 * the workers first.
 */
export async function openApi(config: Config) {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.pgliteDir });
  await seed(database.db, { demo: config.demo });
  let stopUpkeep: (() => Promise<void>) | undefined;
  if (database.pglite) stopUpkeep = await keepTidy(database.pglite);
  else await analyzeNeverAnalyzed(database.db);
  watchDatabasePool(database);
  watchMailOutbox(database.db);
  // Set whenever the API runs here (config.ts); the safe choice otherwise: nothing sent or printed.
  const transport = config.mailTransport ?? "outbox";
  const worker =
    transport === "outbox"
      ? undefined
      : startOutboxWorker({
          db: database.db,
          transport: createMailer({
            smtpUrl: transport === "smtp" ? config.SMTP_URL : undefined,
            from: config.MAIL_FROM,
            outboxDir: config.outboxDir,
          }),
        });
  if (!worker)
    console.log(
      "Mail is kept in the database outbox (MAIL_TRANSPORT=outbox): nothing is sent until a start with SMTP_URL",
    );
  // Text messages (docs/sms.md): to the SMPP gateway, the development console, or none at all.
  watchSmsOutbox(database.db);
  if (config.smsTransport === "none")
    console.log(
      "Text messages are off (no SMS_URL in production): sign-up, sign-in codes and resets by phone are refused",
    );
  const db = database.db;
  const sms =
    config.smsTransport === "none"
      ? undefined
      : startSmsWorker({
          db,
          maxPerHour: config.SMS_MAX_PER_HOUR,
          sender:
            config.smsTransport === "smpp" && config.SMS_URL
              ? smppSender({
                  url: config.SMS_URL,
                  from: config.SMS_FROM,
                  onReceipt: (receipt) => recordReceipt(db, receipt),
                })
              : consoleSender(config.outboxDir),
        });
  // Queuing a notice may queue an SMS with its mail: waking one outbox wakes both.
  const mailer = outboxMailer(database.db, () => {
    worker?.wake();
    sms?.wake();
  });
  const reminders = startReminderWorker({ db: database.db, mailer, hours: config.REMINDER_HOURS });
  const stopControl = database.kind === "pglite" ? await serveControl(database, mailer, config.pgliteDir) : undefined;
  // This process owns the embedded database: `npm run admin` sends its commands here.
  const close = database.close;
  database.close = async () => {
    await stopControl?.();
    await reminders.stop();
    await worker?.stop();
    await sms?.stop();
    await stopUpkeep?.();
    await close();
  };
  return {
    database,
    mailer,
    api: createApi({
      db: database.db,
      mailer,
      trustProxy: config.TRUST_PROXY,
      codeResendSeconds: config.CODE_RESEND_SECONDS,
      bookingLimits: { perDoctor: config.BOOKING_LIMIT_PER_DOCTOR, total: config.BOOKING_LIMIT_TOTAL },
      smsAvailable: Boolean(sms),
      smsCountries: config.SMS_COUNTRIES,
    }),
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
