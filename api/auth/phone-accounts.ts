// Phone numbers as sign-in identities (docs/sms.md, Signing in with a phone; docs/decisions/0028):
// a patient signs up with a phone and no e-mail, proves it with a code by SMS, and signs in and
// resets their password with it. A verified phone, or one the front desk recorded, is one person's
// (the unique index users_verified_phone); signing up with the number of a desk record nobody has
// claimed yet, and proving it, turns that record into the account.
import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { patients, smsOutbox, users } from "../db/schema.ts";
import type { Locale } from "../mail/templates.ts";
import { lockPhone } from "../phone.ts";
import { checkCode, deleteCodes, issueCode, type CodeFailure } from "./codes.ts";
import { hashPassword } from "./password.ts";

/** Wrong dates of birth a desk record takes before only the desk can help. */
export const CLAIM_ATTEMPTS = 5;

/** A sign-up by phone still waiting for its SMS code: no e-mail, not made at the desk, not verified. */
export const pendingPhoneSignUp = sql`(${users.email} is null and ${users.createdBy} is null and not ${users.otpVerified})`;

const accountColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  role: users.role,
  passwordHash: users.passwordHash,
  otpVerified: users.otpVerified,
  locale: users.locale,
  createdBy: users.createdBy,
  dateOfBirth: users.dateOfBirth,
  claimAttempts: users.claimAttempts,
};
const live = and(isNull(users.deletedAt), isNull(users.deactivatedAt));

type PhoneAccount = Awaited<ReturnType<typeof phoneHolder>>;

/** Whose identity `phone` (E.164) is: the live account that verified it, or the desk record holding it. */
export async function phoneHolder(db: Db, phone: string) {
  const [row] = await db
    .select(accountColumns)
    .from(users)
    .where(and(live, eq(users.phone, phone), eq(users.phoneVerified, true)))
    .limit(1);
  return row;
}

/** A record the front desk made that nobody signed up for yet (no password of its own). */
const unclaimedDeskRecord = (a: NonNullable<PhoneAccount>) => a.createdBy !== null && !a.otpVerified;

/** The latest sign-up by phone still waiting for its code. */
async function pendingSignUp(db: Db, phone: string) {
  const [row] = await db
    .select(accountColumns)
    .from(users)
    .where(and(live, eq(users.phone, phone), pendingPhoneSignUp))
    .orderBy(desc(users.createdAt))
    .limit(1);
  return row;
}

/**
 * Who signs in with `phone`: its holder, or (when nobody holds it) the latest sign-up by phone
 * waiting for its code, which login answers with 'unverified' after the right password.
 */
export async function findSignInByPhone(db: Db, phone: string) {
  return (await phoneHolder(db, phone)) ?? (await pendingSignUp(db, phone));
}

/** The account a reset code by SMS may go to: the holder of `phone`, unless a desk record nobody claimed. */
export async function findResettableByPhone(db: Db, phone: string) {
  const holder = await phoneHolder(db, phone);
  return holder && !unclaimedDeskRecord(holder) ? holder : undefined;
}

/** The sign-up by phone a new verification code goes to, if any. */
export const findPendingByPhone = pendingSignUp;

/**
 * A sign-up with a phone and no e-mail. When a person already holds the number, creates nothing and
 * names them (the route texts them that someone tried), so the answer is the same as for a free
 * number. Otherwise makes the sign-up and its first code, bound to the number; `queueCode` runs in
 * the same transaction, so the account and its text exist together. A desk record nobody claimed
 * does not stop the sign-up: proving the code claims it (verifyPhoneSignUp).
 */
export async function registerByPhone(
  db: Db,
  input: { username: string; phone: string; password: string },
  locale: Locale,
  queueCode: (tx: Db, userId: string, code: string) => Promise<void>,
): Promise<{ created: true; id: string } | { created: false; id: string; owner: NonNullable<PhoneAccount> }> {
  // Hash before looking: both outcomes then take the same time.
  const passwordHash = await hashPassword(input.password);
  const holder = await phoneHolder(db, input.phone);
  if (holder && !unclaimedDeskRecord(holder)) return { created: false, id: randomUUID(), owner: holder };
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: null,
        passwordHash,
        role: "patient",
        username: input.username.trim(),
        phone: input.phone,
        locale,
      })
      .returning({ id: users.id });
    await tx.insert(patients).values({ userId: user.id });
    const code = await issueCode(tx, user.id, "verify", { subject: input.phone });
    if (!code) throw new Error("a new account already had a verification code");
    await queueCode(tx, user.id, code);
    return { created: true as const, id: user.id };
  });
}

export type PhoneVerification =
  | { ok: true; userId: string }
  | {
      ok: false;
      reason: CodeFailure | "phone_taken" | "date_of_birth_required" | "date_of_birth_mismatch" | "claim_locked";
    };

/** Leaves a transaction without its changes (the code stays unused) and says why. */
class Undo extends Error {
  readonly reason: "date_of_birth_required" | "date_of_birth_mismatch" | "claim_locked";
  constructor(reason: Undo["reason"]) {
    super(reason);
    this.reason = reason;
  }
}

/**
 * Checks the SMS code of sign-up `id` (a phone-only account, not verified yet) and makes the phone
 * its identity: the number becomes verified, text messages on (the patient's only channel). When a
 * desk record holds the number and nobody claimed it, the record becomes the account instead (same
 * id, its appointments, the sign-up's password and language) and the sign-up row goes; where the
 * desk recorded a date of birth, `dateOfBirth` must match it, and 5 wrong ones lock the claim.
 * Another person holding the number answers phone_taken.
 */
export async function verifyPhoneSignUp(
  db: Db,
  me: { id: string; phone: string },
  code: string,
  dateOfBirth: string | undefined,
): Promise<PhoneVerification> {
  let wrongBirthOf: string | undefined;
  try {
    return await db.transaction(async (tx): Promise<PhoneVerification> => {
      await lockPhone(tx, me.phone);
      const checked = await checkCode(tx, me.id, "verify", code, me.phone);
      if (!checked.ok) return checked;
      const holder = await phoneHolder(tx, me.phone);
      const now = new Date();
      if (!holder) {
        await tx
          .update(users)
          .set({ otpVerified: true, phoneVerified: true, sms: true, updatedAt: now })
          .where(eq(users.id, me.id));
        return { ok: true, userId: me.id };
      }
      if (!unclaimedDeskRecord(holder)) return { ok: false, reason: "phone_taken" };
      if (holder.claimAttempts >= CLAIM_ATTEMPTS) throw new Undo("claim_locked");
      if (holder.dateOfBirth && !dateOfBirth) throw new Undo("date_of_birth_required");
      if (holder.dateOfBirth && holder.dateOfBirth !== dateOfBirth) {
        wrongBirthOf = holder.id;
        throw new Undo("date_of_birth_mismatch");
      }
      const [signUp] = await tx
        .select({ passwordHash: users.passwordHash, locale: users.locale })
        .from(users)
        .where(eq(users.id, me.id));
      await tx
        .update(users)
        .set({
          passwordHash: signUp.passwordHash,
          locale: signUp.locale,
          otpVerified: true,
          // The only channel of a record without an e-mail.
          sms: holder.email === null ? true : sql`${users.sms}`,
          claimAttempts: 0,
          updatedAt: now,
        })
        .where(eq(users.id, holder.id));
      // The sign-up row goes; the texts it was sent stay in the outbox (the limits count them), now the record's.
      await tx.update(smsOutbox).set({ userId: holder.id }).where(eq(smsOutbox.userId, me.id));
      await deleteCodes(tx, me.id);
      await tx.delete(patients).where(eq(patients.userId, me.id));
      await tx.delete(users).where(eq(users.id, me.id));
      return { ok: true, userId: holder.id };
    });
  } catch (error) {
    if (!(error instanceof Undo)) throw error;
    if (wrongBirthOf) {
      const [counted] = await db
        .update(users)
        .set({ claimAttempts: sql`${users.claimAttempts} + 1` })
        .where(eq(users.id, wrongBirthOf))
        .returning({ attempts: users.claimAttempts });
      if (counted && counted.attempts >= CLAIM_ATTEMPTS) return { ok: false, reason: "claim_locked" };
    }
    return { ok: false, reason: error.reason };
  }
}
