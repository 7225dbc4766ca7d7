// Six-digit codes for account verification, the doctor profile gate and password reset
// (docs/product.md): CSPRNG digits, stored hashed, single use, valid 10 minutes, at most 5 wrong
// tries, one live code per user and purpose (a new one replaces the old), resend once a minute.
// Every check runs in PostgreSQL (now(), conditional upserts) so several instances agree.
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { oneTimeCodes } from "../db/schema.ts";
import { type ApiError, badRequest, tooMany } from "../http.ts";

export type CodePurpose = "verify" | "profile" | "reset" | "phone";
export type CodeFailure = "invalid_code" | "code_expired" | "too_many_attempts";

/** How long a code is valid (a text message holding one is dropped unsent after: docs/sms.md). */
export const CODE_TTL_SECONDS = 10 * 60;
const MAX_ATTEMPTS = 5;
const RESEND_INTERVAL_SECONDS = 60;

const CODE_MESSAGES = {
  invalid_code: "Invalid code. Please try again.",
  code_expired: "Code expired. Please request a new code.",
  too_many_attempts: "Too many attempts. Please request a new code.",
  resend_too_soon: "Please wait before requesting a new code.",
} as const;

export const resendTooSoon = () => tooMany(CODE_MESSAGES.resend_too_soon, "resend_too_soon");

/** The error a failed check answers with; `invalidMessage` lets the profile gate keep its wording. */
export function codeError(reason: CodeFailure, invalidMessage: string = CODE_MESSAGES.invalid_code): ApiError {
  if (reason === "too_many_attempts") return tooMany(CODE_MESSAGES.too_many_attempts, reason);
  if (reason === "code_expired") return badRequest(CODE_MESSAGES.code_expired, reason);
  return badRequest(invalidMessage, reason);
}

const generateCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

// Bound to the user and purpose so a row copied elsewhere proves nothing; a phone code also to the
// number it was sent to (`subject`), so it cannot verify another one put in its place.
const hashCode = (userId: string, purpose: CodePurpose, code: string, subject?: string) =>
  createHash("sha256")
    .update(`${purpose}:${userId}:${code}${subject ? `:${subject}` : ""}`)
    .digest("hex");

const secondsAgo = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;
const expiryIn = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/**
 * Issues a fresh code that replaces any previous one, and returns it (to be mailed, never logged).
 * Returns null when the previous code was issued less than `minIntervalSeconds` ago. A code lives
 * 10 minutes unless `ttlSeconds` says otherwise (a receptionist's invitation waits days).
 */
export async function issueCode(
  db: Db,
  userId: string,
  purpose: CodePurpose,
  {
    minIntervalSeconds = RESEND_INTERVAL_SECONDS,
    subject,
    ttlSeconds = CODE_TTL_SECONDS,
  }: { minIntervalSeconds?: number; subject?: string; ttlSeconds?: number } = {},
): Promise<string | null> {
  const expiry = expiryIn(ttlSeconds);
  const code = generateCode();
  const codeHash = hashCode(userId, purpose, code, subject);
  const rows = await db
    .insert(oneTimeCodes)
    .values({ userId, purpose, codeHash, attempts: 0, expiresAt: expiry, createdAt: sql`now()` })
    .onConflictDoUpdate({
      target: [oneTimeCodes.userId, oneTimeCodes.purpose],
      set: { codeHash, attempts: 0, expiresAt: expiry, consumedAt: null, createdAt: sql`now()` },
      setWhere: sql`${oneTimeCodes.createdAt} <= ${secondsAgo(minIntervalSeconds)}`,
    })
    .returning({ id: oneTimeCodes.id });
  return rows.length ? code : null;
}

/** Whether the current code is live: issued, unused, unexpired and not killed by wrong tries. */
export async function hasLiveCode(db: Db, userId: string, purpose: CodePurpose): Promise<boolean> {
  const [row] = await db
    .select({
      live: sql<boolean>`(${oneTimeCodes.consumedAt} is null and ${oneTimeCodes.attempts} < ${MAX_ATTEMPTS} and ${oneTimeCodes.expiresAt} > now())`,
    })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)));
  return Boolean(row?.live);
}

/**
 * Checks a submitted code and consumes it on success. A wrong code costs one of the 5 tries; the
 * fifth wrong try kills the code (answered as too_many_attempts). Run it inside the transaction of
 * the effect it unlocks, but let the caller throw after commit so a counted try is kept.
 */
export async function checkCode(
  db: Db,
  userId: string,
  purpose: CodePurpose,
  code: string,
  subject?: string,
): Promise<{ ok: true } | { ok: false; reason: CodeFailure }> {
  const [row] = await db
    .select({
      id: oneTimeCodes.id,
      codeHash: oneTimeCodes.codeHash,
      attempts: oneTimeCodes.attempts,
      consumedAt: oneTimeCodes.consumedAt,
      expired: sql<boolean>`(${oneTimeCodes.expiresAt} <= now())`,
    })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)));
  if (!row || row.consumedAt) return { ok: false, reason: "invalid_code" };
  if (row.attempts >= MAX_ATTEMPTS) return { ok: false, reason: "too_many_attempts" };
  if (row.expired) return { ok: false, reason: "code_expired" };

  const submitted = Buffer.from(hashCode(userId, purpose, code, subject), "hex");
  const stored = Buffer.from(row.codeHash, "hex");
  if (submitted.length !== stored.length || !timingSafeEqual(submitted, stored)) {
    const [counted] = await db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
      .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumedAt)))
      .returning({ attempts: oneTimeCodes.attempts });
    return { ok: false, reason: counted && counted.attempts >= MAX_ATTEMPTS ? "too_many_attempts" : "invalid_code" };
  }
  // Conditional consume: of two concurrent correct submissions only one wins.
  const [used] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(oneTimeCodes.id, row.id),
        eq(oneTimeCodes.codeHash, row.codeHash),
        isNull(oneTimeCodes.consumedAt),
        lt(oneTimeCodes.attempts, MAX_ATTEMPTS),
        gt(oneTimeCodes.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: oneTimeCodes.id });
  return used ? { ok: true } : { ok: false, reason: "invalid_code" };
}

export async function deleteCodes(db: Db, userId: string) {
  await db.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
}
