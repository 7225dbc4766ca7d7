// The SMS outbox (docs/sms.md), the mail outbox's sibling (api/mail/outbox.ts, ADR 0009): a request
// never talks to the SMPP gateway. It writes the message to `sms_outbox` in the transaction of the
// change that causes it, and a worker sends it: retries with backoff, nothing lost on a restart,
// several instances sharing the rows (FOR UPDATE SKIP LOCKED under a lease). Unlike a mail's, a
// sent row stays: it keeps the gateway's message id and delivery receipt for the operator (its
// text is emptied when it held a code), and it is what the limits count.
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { rowsOf } from "../query.ts";
import { startRounds } from "../rounds.ts";
import { smsOutbox, users } from "../db/schema.ts";
import type { Receipt, SmsSender } from "./smpp.ts";

/** Notices (not codes) one user may be sent in 24 hours (docs/sms.md, Limits). */
export const DAILY_NOTICES = 10;

/**
 * Queues a notice to `userId` within `tx`, if they turned SMS on, their phone is verified and they
 * had fewer than DAILY_NOTICES notices in the last 24 hours. Returns whether it was queued; the
 * caller wakes the worker after the commit.
 */
export async function queueNoticeSms(tx: Db, userId: string, text: string): Promise<boolean> {
  return (await queueNoticesSms(tx, [{ userId, text }])) === 1;
}

/**
 * queueNoticeSms for many notices in one statement, whatever their number (a closed day's): the
 * notices to one user count against their DAILY_NOTICES in the order given. Returns how many were
 * queued.
 */
export async function queueNoticesSms(tx: Db, notices: readonly { userId: string; text: string }[]) {
  if (notices.length === 0) return 0;
  const given = JSON.stringify(notices.map((n, ord) => ({ user_id: n.userId, text: n.text, ord })));
  const [{ queued, held }] = rowsOf<{ queued: number; held: number }>(
    await tx.execute(sql`
      with wanted as (
        select n.user_id, n.text, u.phone,
          row_number() over (partition by n.user_id order by n.ord) as nth,
          (select count(*) from ${smsOutbox} o
            where o.user_id = n.user_id and o.kind = 'notice' and o.created_at > now() - interval '1 day') as today
        from jsonb_to_recordset(${given}::jsonb) as n(user_id uuid, text text, ord int)
        join ${users} u on u.id = n.user_id
        where u.phone is not null and u.phone_verified and u.sms and u.deleted_at is null
      ), queued as (
        insert into ${smsOutbox} (user_id, kind, recipient, text)
        select user_id, 'notice', phone, text from wanted where today + nth <= ${DAILY_NOTICES}
        returning 1
      )
      select (select count(*) from queued)::int as queued,
        (select count(*) from wanted where today + nth > ${DAILY_NOTICES})::int as held`),
  );
  if (held > 0) console.warn(`[sms] daily limit of ${DAILY_NOTICES} notices reached: ${held} not queued`);
  return Number(queued);
}

/** Queues a verification code to `phone` (the user's, not yet verified) within `tx`. */
export async function queueCodeSms(tx: Db, userId: string, phone: string, text: string) {
  await tx.insert(smsOutbox).values({ userId, kind: "code", recipient: phone, text });
}

/**
 * Keeps a delivery receipt on the message it is about. A gateway may send the receipt before the
 * worker has written the message id that submit_sm answered: the receipt then waits a little.
 */
export async function recordReceipt(db: Db, { messageId, status }: Receipt, tries = 10) {
  for (let i = 0; i < tries; i++) {
    const rows = await db
      .update(smsOutbox)
      .set({ deliveryStatus: status, deliveredAt: sql`now()` })
      .where(eq(smsOutbox.messageId, messageId))
      .returning({ id: smsOutbox.id });
    if (rows.length) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  console.warn(`[sms] a delivery receipt (${status}) names no message sent from here`);
}

/** Development without SMS_URL: printed on the console and written beside the mail outbox's files. */
export function consoleSender(outboxDir?: string): SmsSender {
  return {
    async send({ to, text }) {
      console.log(`[sms] to=${to}\n${text}`);
      if (outboxDir) {
        await fs.mkdir(outboxDir, { recursive: true });
        const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-sms-${to.replace(/[^0-9+]/g, "_")}.json`;
        await fs.writeFile(path.join(outboxDir, name), JSON.stringify({ sms: true, to, text }, null, 2));
      }
      return undefined;
    },
    async close() {},
  };
}

export interface SmsWorkerOptions {
  db: Db;
  sender: SmsSender;
  /** SMS_MAX_PER_HOUR: messages sent in the last hour by every instance together, at most. */
  maxPerHour: number;
  pollMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  backoffMs?: (failedAttempts: number) => number;
  leaseSeconds?: number;
  /** Sent rows are deleted after this many days. */
  keepDays?: number;
}

const DEFAULT_BACKOFF = (failed: number) => Math.min(60 * 60_000, 30_000 * 2 ** (failed - 1));

/** The advisory lock under which instances count the hour's messages and claim: any constant no other lock uses. */
const SMS_CEILING_LOCK = 727_301_996;

export function startSmsWorker(options: SmsWorkerOptions) {
  const {
    db,
    sender,
    maxPerHour,
    pollMs = 2000,
    batchSize = 20,
    maxAttempts = 10,
    backoffMs = DEFAULT_BACKOFF,
    leaseSeconds = 300,
    keepDays = 30,
  } = options;
  let ceilingSaid = false;
  let lastSweep = 0;

  /**
   * Claims due rows, no more than the hourly ceiling leaves: their due time moves past the lease.
   * The messages of the last hour are those sent and those another claim may be sending; counting
   * them and claiming hold one lock, so instances claiming at once share the room instead of each
   * taking all of it.
   */
  async function claim() {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SMS_CEILING_LOCK})`);
      const [{ lastHour }] = await tx
        .select({ lastHour: sql<number>`count(*)`.mapWith(Number) })
        .from(smsOutbox)
        .where(
          or(
            gt(smsOutbox.sentAt, sql`now() - interval '1 hour'`),
            and(isNull(smsOutbox.sentAt), isNull(smsOutbox.failedAt), gt(smsOutbox.leasedUntil, sql`now()`)),
          ),
        );
      const room = Math.min(batchSize, maxPerHour - lastHour);
      if (room <= 0) {
        if (!ceilingSaid)
          console.warn(`[sms] hourly ceiling of ${maxPerHour} messages reached (SMS_MAX_PER_HOUR): the rest wait`);
        ceilingSaid = true;
        return [];
      }
      ceilingSaid = false;
      const due = tx
        .select({ id: smsOutbox.id })
        .from(smsOutbox)
        .where(and(isNull(smsOutbox.sentAt), isNull(smsOutbox.failedAt), lte(smsOutbox.dueAt, sql`now()`)))
        .orderBy(asc(smsOutbox.dueAt), asc(smsOutbox.id))
        .limit(room)
        .for("update", { skipLocked: true });
      const lease = sql`now() + make_interval(secs => ${leaseSeconds})`;
      return tx
        .update(smsOutbox)
        .set({ attempts: sql`${smsOutbox.attempts} + 1`, dueAt: lease, leasedUntil: lease })
        .where(inArray(smsOutbox.id, due))
        .returning();
    });
  }

  /** A notice goes only to the user's current phone, still verified, with SMS still on. */
  async function stillWanted(row: typeof smsOutbox.$inferSelect) {
    if (row.kind !== "notice" || !row.userId) return true;
    const [user] = await db
      .select({ phone: users.phone, verified: users.phoneVerified, sms: users.sms })
      .from(users)
      .where(eq(users.id, row.userId));
    return Boolean(user && user.phone === row.recipient && user.verified && user.sms);
  }

  async function deliver(row: typeof smsOutbox.$inferSelect) {
    if (!(await stillWanted(row))) {
      await db
        .update(smsOutbox)
        .set({ failedAt: sql`now()`, lastError: "phone changed, unverified or SMS turned off before sending" })
        .where(eq(smsOutbox.id, row.id));
      return;
    }
    try {
      const messageId = await sender.send({ to: row.recipient, text: row.text ?? "" });
      await db
        .update(smsOutbox)
        .set({
          sentAt: sql`now()`,
          messageId: messageId ?? null,
          lastError: null,
          ...(row.kind === "code" ? { text: null } : {}),
        })
        .where(eq(smsOutbox.id, row.id));
    } catch (error) {
      // One line, no recipient and no text: the message may hold a code.
      const reason = String((error as Error)?.message ?? error)
        .split("\n")[0]
        .slice(0, 300);
      if (row.attempts >= maxAttempts) {
        console.error(`[sms] outbox #${row.id}: giving up after ${row.attempts} attempts: ${reason}`);
        await db
          .update(smsOutbox)
          .set({ failedAt: sql`now()`, lastError: reason, text: null })
          .where(eq(smsOutbox.id, row.id));
      } else {
        const wait = backoffMs(row.attempts);
        console.error(
          `[sms] outbox #${row.id}: attempt ${row.attempts} failed, next in ${Math.ceil(wait / 1000)} s: ${reason}`,
        );
        await db
          .update(smsOutbox)
          .set({ dueAt: sql`now() + make_interval(secs => ${wait / 1000})`, leasedUntil: null, lastError: reason })
          .where(eq(smsOutbox.id, row.id));
      }
    }
  }

  async function sendDue() {
    if (Date.now() - lastSweep > 3_600_000) {
      lastSweep = Date.now();
      await db.delete(smsOutbox).where(lt(smsOutbox.createdAt, sql`now() - make_interval(days => ${keepDays})`));
    }
    for (;;) {
      if (rounds.stopped) return;
      const batch = await claim();
      for (const row of batch) await deliver(row);
      if (batch.length < batchSize) return;
    }
  }

  const rounds = startRounds(sendDue, { pollMs, label: "[sms] outbox worker" });

  return {
    /** Wakes it after a commit that queued a message. */
    wake: rounds.wake,
    /** Waits for the current round and sends whatever is due now (tests). */
    async drain() {
      await rounds.settle();
      await sendDue();
    },
    /** Stops polling, lets a send in progress finish, and closes the gateway's session. */
    async stop() {
      await rounds.stop();
      await sender.close();
    },
  };
}
