// The mail outbox (docs/mail.md): a request never talks to the SMTP server. It writes the message to
// `mail_outbox`, in the transaction of the change that causes it when there is one, and a worker in
// the same process sends it: retries with backoff, nothing lost on a restart, and on PostgreSQL
// several instances share the rows (FOR UPDATE SKIP LOCKED). Delivery is at least once: a process
// that dies between the SMTP server's acceptance and the row's deletion sends that mail again.
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { startRounds } from "../rounds.ts";
import { mailOutbox } from "../db/schema.ts";
import type { Mailer, MailMessage } from "./index.ts";

/** What the routes get: `send` queues a message on its own, `enqueue` inside the caller's transaction. */
export interface OutboxMailer extends Mailer {
  /** Queues within `tx`: the mail exists if and only if the transaction commits. Call `wake` after the commit. */
  enqueue(tx: Db, message: MailMessage): Promise<void>;
  /** Queues all of `messages` within `tx` in one statement, whatever their number (a closed day's notices). */
  enqueueAll(tx: Db, messages: readonly MailMessage[]): Promise<void>;
  /** Tells the worker there is mail to send now rather than at its next poll. */
  wake(): void;
}

const row = (message: MailMessage) => ({
  recipient: message.to,
  subject: message.subject,
  text: message.text,
  html: message.html,
  attachments: message.attachments ?? [],
});

export function outboxMailer(db: Db, onQueued: () => void = () => {}): OutboxMailer {
  return {
    async send(message) {
      await db.insert(mailOutbox).values(row(message));
      onQueued();
    },
    async enqueue(tx, message) {
      await tx.insert(mailOutbox).values(row(message));
    },
    async enqueueAll(tx, messages) {
      if (messages.length === 0) return;
      // One parameter for them all: a statement takes at most 65,535, fewer than a large day's fields.
      await tx.execute(sql`
        insert into ${mailOutbox} (recipient, subject, text, html, attachments)
        select m.recipient, m.subject, m.text, m.html, m.attachments
        from jsonb_to_recordset(${JSON.stringify(messages.map(row))}::jsonb)
          as m(recipient text, subject text, text text, html text, attachments jsonb)`);
    },
    wake: onQueued,
  };
}

export interface OutboxWorkerOptions {
  db: Db;
  /** Where mail goes: SMTP in production, the development console, or a test's memory. */
  transport: Mailer;
  /** The worker looks for due mail this often even when nobody wakes it (other instances' mail, retries). */
  pollMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  /** Wait before attempt n+1 after n failed attempts. */
  backoffMs?: (failedAttempts: number) => number;
  /** A claimed row is left alone this long; a worker that died while sending gives it back so. */
  leaseSeconds?: number;
}

const DEFAULT_BACKOFF = (failed: number) => Math.min(60 * 60_000, 30_000 * 2 ** (failed - 1));

export function startOutboxWorker(options: OutboxWorkerOptions) {
  const {
    db,
    transport,
    pollMs = 2000,
    batchSize = 20,
    maxAttempts = 10,
    backoffMs = DEFAULT_BACKOFF,
    leaseSeconds = 300,
  } = options;

  /** Claims due rows for this worker: their due time moves past the lease, and the attempt is counted. */
  async function claim() {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.failedAt), lte(mailOutbox.dueAt, sql`now()`)))
      .orderBy(asc(mailOutbox.dueAt), asc(mailOutbox.id))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, dueAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  async function deliver(mail: typeof mailOutbox.$inferSelect) {
    try {
      await transport.send({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
      });
      // Sent: the row (which may hold a code) does not outlive its purpose.
      await db.delete(mailOutbox).where(eq(mailOutbox.id, mail.id));
    } catch (error) {
      // One line, no recipient and no content: the message may hold a code.
      const reason = String((error as Error)?.message ?? error)
        .split("\n")[0]
        .slice(0, 300);
      if (mail.attempts >= maxAttempts) {
        console.error(`[mail] outbox #${mail.id}: giving up after ${mail.attempts} attempts: ${reason}`);
        await db.update(mailOutbox).set({ failedAt: sql`now()`, lastError: reason }).where(eq(mailOutbox.id, mail.id));
      } else {
        const wait = backoffMs(mail.attempts);
        console.error(
          `[mail] outbox #${mail.id}: attempt ${mail.attempts} failed, next in ${Math.ceil(wait / 1000)} s: ${reason}`,
        );
        await db
          .update(mailOutbox)
          .set({ dueAt: sql`now() + make_interval(secs => ${wait / 1000})`, lastError: reason })
          .where(eq(mailOutbox.id, mail.id));
      }
    }
  }

  /** Sends everything due now, batch after batch. */
  async function sendDue() {
    for (;;) {
      if (rounds.stopped) return;
      const batch = await claim();
      for (const mail of batch) await deliver(mail);
      if (batch.length < batchSize) return;
    }
  }

  const rounds = startRounds(sendDue, { pollMs, label: "[mail] outbox worker" });

  return {
    wake: rounds.wake,
    /** Waits for the current round and sends whatever is due now (tests, and a clean shutdown). */
    async drain() {
      await rounds.settle();
      await sendDue();
    },
    /** Stops polling and lets a send in progress finish; what is left waits in the table for the next start. */
    stop: rounds.stop,
  };
}

export type OutboxWorker = ReturnType<typeof startOutboxWorker>;
