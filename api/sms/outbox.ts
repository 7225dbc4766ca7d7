// The SMS outbox (docs/sms.md), the mail outbox's sibling (api/mail/outbox.ts, ADR 0009): a request
// never talks to the SMPP gateway. It writes the message to `sms_outbox` in the transaction of the
// change that causes it, and a worker sends it: retries with backoff, nothing lost on a restart,
// several instances sharing the rows (FOR UPDATE SKIP LOCKED under a lease). Unlike a mail's, a
// sent row stays: it keeps the gateway's message id and delivery receipt for the operator (its
// text is emptied when it held a code), and it is what the limits count.
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { rowsOf } from "../query.ts";
import { startRounds } from "../rounds.ts";
import { smsOutbox, users } from "../db/schema.ts";
import type { Receipt, SmsSender } from "./smpp.ts";

/** Notices (not codes) one user may be sent in 24 hours (docs/sms.md, Limits). */
export const DAILY_NOTICES = 10;

/** A notice to text: to whom, what, and until when it is of use (its appointment's start). */
export interface SmsNotice {
  userId: string;
  text: string;
  expiresAt: Date;
}

// The advisory locks of the outbox (any constants no other lock uses): the one under which
// instances count the hour's messages and claim, and the class of the per-user ones under which a
// user's notices of the day are counted and queued.
const SMS_CEILING_LOCK = 727_301_996;
const SMS_DAILY_LOCK = 727_301_997;

/**
 * Queues `notices` within `tx`, in one insert whatever their number: each goes if its user turned
 * SMS on, their phone is verified, and they had fewer than DAILY_NOTICES notices in the last 24
 * hours, those given here before it included. Returns the users texted; the caller wakes the
 * worker after the commit.
 */
export async function queueNoticesSms(tx: Db, notices: readonly SmsNotice[]): Promise<Set<string>> {
  if (notices.length === 0) return new Set();
  const list = JSON.stringify(notices);
  // Each user's lock, taken in one order so two transactions never wait for each other, then the
  // count in the next statement, which sees what a transaction that held the lock before committed.
  await tx.execute(sql`
    select pg_advisory_xact_lock(${SMS_DAILY_LOCK}, hashtext(user_id))
    from (select distinct n->>'userId' as user_id from jsonb_array_elements(${list}::jsonb) n order by 1) u`);
  const result = await tx.execute(sql`
    with wanted as (
      select n.user_id, n.text, n.expires_at, u.phone, n.nth + (
          select count(*) from ${smsOutbox} o
          where o.user_id = n.user_id and o.kind = 'notice' and o.created_at > now() - interval '1 day'
        ) as nth_today
      from (
        select (v->>'userId')::uuid as user_id, v->>'text' as text, (v->>'expiresAt')::timestamptz as expires_at,
          row_number() over (partition by v->>'userId' order by i) as nth
        from jsonb_array_elements(${list}::jsonb) with ordinality as n(v, i)
      ) n
      join ${users} u on u.id = n.user_id
      where u.phone is not null and u.phone_verified and u.sms and u.deleted_at is null
    ), queued as (
      insert into ${smsOutbox} (user_id, kind, recipient, text, expires_at)
      select user_id, 'notice', phone, text, expires_at from wanted where nth_today <= ${DAILY_NOTICES}
      returning user_id
    )
    select user_id::text, true as queued from queued
    union all
    select user_id::text, false from wanted where nth_today > ${DAILY_NOTICES}`);
  const rows = rowsOf<{ user_id: string; queued: boolean }>(result);
  const over = rows.filter((r) => !r.queued).length;
  if (over) console.warn(`[sms] daily limit of ${DAILY_NOTICES} notices reached: ${over} notice(s) not queued`);
  return new Set(rows.filter((r) => r.queued).map((r) => r.user_id));
}

/** queueNoticesSms for one notice: whether it was queued. */
export async function queueNoticeSms(tx: Db, notice: SmsNotice): Promise<boolean> {
  return (await queueNoticesSms(tx, [notice])).size > 0;
}

/**
 * Queues a verification code to `phone` (the user's, not yet verified) within `tx`, the transaction
 * that issued it, valid `validSeconds`: now() is the code's, so the message expires with the code.
 */
export async function queueCodeSms(
  tx: Db,
  { userId, phone, text, validSeconds }: { userId: string; phone: string; text: string; validSeconds: number },
) {
  await tx.insert(smsOutbox).values({
    userId,
    kind: "code",
    recipient: phone,
    text,
    expiresAt: sql`now() + make_interval(secs => ${validSeconds})`,
  });
}

/**
 * Queues, within `tx`, a warning to the holder of `phone` that someone tried to sign up with it
 * (docs/sms.md, Signing in with a phone): it goes whatever their SMS choice, since it is about the
 * account, not an appointment; of no use after an hour. The callers let one go per number per minute.
 */
export async function queueAlertSms(tx: Db, { userId, phone, text }: { userId: string; phone: string; text: string }) {
  await tx.insert(smsOutbox).values({
    userId,
    kind: "alert",
    recipient: phone,
    text,
    expiresAt: sql`now() + interval '1 hour'`,
  });
}

/**
 * Erases, within `tx`, a deleted account's numbers and texts from the outbox at once: what was not
 * sent yet is dropped; what was sent keeps its message id and receipt, and counts in the limits.
 */
export async function eraseSmsOf(tx: Db, userId: string) {
  await tx
    .update(smsOutbox)
    .set({ failedAt: sql`now()`, dropped: "account_deleted" })
    .where(and(eq(smsOutbox.userId, userId), isNull(smsOutbox.sentAt), isNull(smsOutbox.failedAt)));
  await tx.update(smsOutbox).set({ recipient: null, text: null }).where(eq(smsOutbox.userId, userId));
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
    worstCaseMs: 10_000,
  };
}

export interface SmsWorkerOptions {
  db: Db;
  sender: SmsSender;
  /** SMS_MAX_PER_HOUR: messages sent in the last hour by every instance together, at most. */
  maxPerHour: number;
  pollMs?: number;
  maxAttempts?: number;
  backoffMs?: (failedAttempts: number) => number;
  /** Sent rows are deleted after this many days. */
  keepDays?: number;
}

const DEFAULT_BACKOFF = (failed: number) => Math.min(60 * 60_000, 30_000 * 2 ** (failed - 1));

type Row = typeof smsOutbox.$inferSelect;
const unsent = and(isNull(smsOutbox.sentAt), isNull(smsOutbox.failedAt));

export function startSmsWorker(options: SmsWorkerOptions) {
  const {
    db,
    sender,
    maxPerHour,
    pollMs = 2000,
    maxAttempts = 10,
    backoffMs = DEFAULT_BACKOFF,
    keepDays = 30,
  } = options;
  // A claim holds one message for twice the longest its sending may take: the claim itself, the
  // check before sending, the row's update after, and the timers of a loaded machine, which fire
  // late, fit in the other half. So a lease never runs out while its holder still works on it.
  const leaseMs = 2 * sender.worstCaseMs;
  let ceilingSaid = false;
  let lastSweep = 0;

  /**
   * Claims the most urgent message due, if any: a code before any notice, then the oldest. Its due
   * time moves past the lease, and `attempts` counts the claim: the holder's token, which every
   * later update of the row checks. Under one lock with the other instances' claims: first what can
   * no longer be of use is dropped, then the last hour's messages are counted (those sent, and
   * those another claim may be sending); a notice waits while they reach the ceiling, a code never
   * does (its own limits bound it: docs/sms.md).
   */
  async function claim(): Promise<Row | undefined> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SMS_CEILING_LOCK})`);
      await tx
        .update(smsOutbox)
        .set({
          failedAt: sql`now()`,
          dropped: "expired",
          text: sql`case when ${smsOutbox.kind} = 'code' then null else ${smsOutbox.text} end`,
        })
        .where(
          and(
            unsent,
            lte(smsOutbox.expiresAt, sql`now()`),
            or(isNull(smsOutbox.leasedUntil), lte(smsOutbox.leasedUntil, sql`now()`)),
          ),
        );
      const [{ lastHour }] = await tx
        .select({ lastHour: sql<number>`count(*)`.mapWith(Number) })
        .from(smsOutbox)
        .where(
          or(gt(smsOutbox.sentAt, sql`now() - interval '1 hour'`), and(unsent, gt(smsOutbox.leasedUntil, sql`now()`))),
        );
      const full = lastHour >= maxPerHour;
      if (full && !ceilingSaid)
        console.warn(`[sms] hourly ceiling of ${maxPerHour} messages reached (SMS_MAX_PER_HOUR): notices wait`);
      ceilingSaid = full;
      const due = tx
        .select({ id: smsOutbox.id })
        .from(smsOutbox)
        .where(and(unsent, lte(smsOutbox.dueAt, sql`now()`), full ? eq(smsOutbox.kind, "code") : undefined))
        .orderBy(desc(sql`${smsOutbox.kind} = 'code'`), asc(smsOutbox.dueAt), asc(smsOutbox.id))
        .limit(1)
        .for("update", { skipLocked: true });
      const lease = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
      const [row] = await tx
        .update(smsOutbox)
        .set({ attempts: sql`${smsOutbox.attempts} + 1`, dueAt: lease, leasedUntil: lease })
        .where(inArray(smsOutbox.id, due))
        .returning();
      return row;
    });
  }

  /** Updates `row` only while the claim that returned it is its last: the fencing token. */
  const ours = (row: Row) => and(eq(smsOutbox.id, row.id), eq(smsOutbox.attempts, row.attempts), unsent);

  /** A notice goes only to the user's current phone, still verified, with SMS still on. */
  async function stillWanted(row: Row) {
    if (row.kind !== "notice" || !row.userId) return true;
    const [user] = await db
      .select({ phone: users.phone, verified: users.phoneVerified, sms: users.sms })
      .from(users)
      .where(eq(users.id, row.userId));
    return Boolean(user && user.phone === row.recipient && user.verified && user.sms);
  }

  /** Sends `row`, claimed `claimedAt` (performance.now(), before the claim began). */
  async function deliver(row: Row, claimedAt: number) {
    if (!(await stillWanted(row))) {
      await db
        .update(smsOutbox)
        .set({
          failedAt: sql`now()`,
          dropped: "unwanted",
          lastError: "phone changed, unverified or SMS turned off before sending",
        })
        .where(ours(row));
      return;
    }
    // The database or this process stalled since the claim: a send begun now might outlast the
    // lease, and another instance send the message too. It goes once the lease has run out.
    if (performance.now() - claimedAt + sender.worstCaseMs > leaseMs) {
      console.warn(`[sms] outbox #${row.id}: too late in its lease to send; left for the next claim`);
      return;
    }
    try {
      const messageId = await sender.send({ to: row.recipient ?? "", text: row.text ?? "" });
      const [marked] = await db
        .update(smsOutbox)
        .set({
          sentAt: sql`now()`,
          messageId: messageId ?? null,
          lastError: null,
          ...(row.kind === "code" ? { text: null } : {}),
        })
        .where(ours(row))
        .returning({ id: smsOutbox.id });
      if (!marked) console.warn(`[sms] outbox #${row.id}: sent, but dropped or claimed again meanwhile`);
    } catch (error) {
      // One line, no recipient and no text: the message may hold a code.
      const reason = String((error as Error)?.message ?? error)
        .split("\n")[0]
        .slice(0, 300);
      if (row.attempts >= maxAttempts) {
        console.error(`[sms] outbox #${row.id}: giving up after ${row.attempts} attempts: ${reason}`);
        await db.update(smsOutbox).set({ failedAt: sql`now()`, lastError: reason, text: null }).where(ours(row));
      } else {
        const wait = backoffMs(row.attempts);
        console.error(
          `[sms] outbox #${row.id}: attempt ${row.attempts} failed, next in ${Math.ceil(wait / 1000)} s: ${reason}`,
        );
        await db
          .update(smsOutbox)
          .set({ dueAt: sql`now() + make_interval(secs => ${wait / 1000})`, leasedUntil: null, lastError: reason })
          .where(ours(row));
      }
    }
  }

  async function sendDue() {
    if (Date.now() - lastSweep > 3_600_000) {
      lastSweep = Date.now();
      await db.delete(smsOutbox).where(lt(smsOutbox.createdAt, sql`now() - make_interval(days => ${keepDays})`));
    }
    // One message per claim: the lease covers the sending of one, however slow the gateway.
    for (;;) {
      if (rounds.stopped) return;
      const claimedAt = performance.now();
      const row = await claim();
      if (!row) return;
      await deliver(row, claimedAt);
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
