// Throttling kept in the `throttles` table so every instance behind a load balancer agrees:
// - login failures per account and per IP, with growing delays (DESIGN.md section 5);
// - "at most once a minute" for mails triggered by anonymous calls, keyed by e-mail address
//   whether or not an account exists, so the answers cannot reveal accounts.
import { inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { throttles } from "../db/schema.ts";

export interface FailurePolicy {
  /** Failures within the window before the first block. */
  limit: number;
  windowSeconds: number;
  /** First block; doubles with every further failure, up to maxBlockSeconds. */
  baseBlockSeconds: number;
  maxBlockSeconds: number;
}

export const LOGIN_ACCOUNT_POLICY: FailurePolicy = { limit: 5, windowSeconds: 15 * 60, baseBlockSeconds: 60, maxBlockSeconds: 60 * 60 };
// An IP may hold many honest users (a clinic, a mobile carrier NAT): a looser limit.
export const LOGIN_IP_POLICY: FailurePolicy = { limit: 30, windowSeconds: 15 * 60, baseBlockSeconds: 60, maxBlockSeconds: 60 * 60 };

export const loginAccountKey = (email: string) => `login:account:${email.trim().toLowerCase()}`;
export const loginIpKey = (ip: string) => `login:ip:${ip}`;

/** Seconds until every given key is unblocked (0 when none is blocked). */
export async function blockedForSeconds(db: Db, keys: string[]): Promise<number> {
  const [row] = await db
    .select({
      seconds: sql<number | null>`ceil(extract(epoch from max(${throttles.blockedUntil}) - now()))::int`,
    })
    .from(throttles)
    .where(sql`${inArray(throttles.key, keys)} and ${throttles.blockedUntil} > now()`);
  return Math.max(0, Number(row?.seconds ?? 0));
}

/**
 * Counts one failure. A series restarts once its window has passed and no block ended within the
 * window, so an attacker who waits out a block meets a longer one next time.
 */
export async function recordFailure(db: Db, key: string, policy: FailurePolicy) {
  const { limit, windowSeconds, baseBlockSeconds, maxBlockSeconds } = policy;
  const restart = sql.raw(
    `("throttles"."window_start" < now() - make_interval(secs => ${windowSeconds})
      and coalesce("throttles"."blocked_until", '-infinity'::timestamptz) < now() - make_interval(secs => ${windowSeconds}))`,
  );
  const hits = sql`case when ${restart} then 1 else "throttles"."hits" + 1 end`;
  const block = (h: SQL) =>
    sql`case when ${h} >= ${limit}
      then now() + make_interval(secs => least(${maxBlockSeconds}, ${baseBlockSeconds} * power(2, ${h} - ${limit})))
      else null end`;
  await db
    .insert(throttles)
    .values({ key, hits: 1, windowStart: sql`now()`, blockedUntil: limit <= 1 ? sql`now() + make_interval(secs => ${baseBlockSeconds})` : null })
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        hits,
        windowStart: sql`case when ${restart} then now() else "throttles"."window_start" end`,
        blockedUntil: block(hits),
      },
    });
  // Opportunistic clean-up of long-finished series keeps the table small without a job.
  if (Math.random() < 0.01) await forgetStale(db);
}

export async function clearThrottle(db: Db, key: string) {
  await db.delete(throttles).where(inArray(throttles.key, [key]));
}

/**
 * Claims the right to act for `key` (e.g. send a mail) at most once per `intervalSeconds`.
 * Atomic: of concurrent claims one wins. False when the last claim is too recent.
 */
export async function claimOncePer(db: Db, key: string, intervalSeconds: number): Promise<boolean> {
  const rows = await db
    .insert(throttles)
    .values({ key, hits: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: throttles.key,
      set: { hits: sql`"throttles"."hits" + 1`, windowStart: sql`now()` },
      setWhere: sql`"throttles"."window_start" <= now() - make_interval(secs => ${intervalSeconds})`,
    })
    .returning({ key: throttles.key });
  return rows.length > 0;
}

export async function forgetStale(db: Db) {
  await db
    .delete(throttles)
    .where(sql`${throttles.windowStart} < now() - interval '1 day' and coalesce(${throttles.blockedUntil}, '-infinity'::timestamptz) < now()`);
}
