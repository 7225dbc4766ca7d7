// Account data functions: the session user (docs/product.md, Data), registration without account
// enumeration, and account deletion (docs/product.md).
import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { RegistrationBody, SessionUser } from "../../contract/auth.ts";
import type { Db } from "../db/index.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { appointments, doctors, idempotencyKeys, patients, proposals, users } from "../db/schema.ts";
import { notFound } from "../http.ts";
import type { Locale } from "../mail/templates.ts";
import { hashPassword } from "./password.ts";
import { deleteCodes, issueCode } from "./codes.ts";
import { revokeAllTokens } from "./tokens.ts";
import { revokeFeeds } from "../calendar/feeds.ts";
import { eraseSmsOf } from "../sms/outbox.ts";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The user object the API answers (login `data`, verifyUser answer). Codes are never sent. */
export async function sessionUser(db: Db, userId: string): Promise<SessionUser> {
  const user = await db.query.users.findFirst({
    where: (u, { and, eq, isNull }) => and(eq(u.id, userId), isNull(u.deletedAt)),
    with: { country: true, city: true },
  });
  if (!user) throw notFound("User not found");
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    dateOfBirth: user.dateOfBirth,
    phone: user.phone,
    address: user.address,
    gender: user.gender,
    otpCode: null,
    otpVerified: user.otpVerified,
    userRole: user.role,
    avatarUrl: user.avatarUrl,
    resetCode: null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt?.toISOString() ?? null,
    Country: user.country ? { id: user.country.id, name: user.country.name, code: user.country.code } : null,
    City: user.city ? { id: user.city.id, name: user.city.name } : null,
  };
}

export async function findActiveUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select({
      id: users.id,
      // Found by its address: never null.
      email: sql<string>`${users.email}`,
      username: users.username,
      role: users.role,
      passwordHash: users.passwordHash,
      otpVerified: users.otpVerified,
      locale: users.locale,
    })
    .from(users)
    .where(
      and(sql`lower(${users.email}) = ${normalizeEmail(email)}`, isNull(users.deletedAt), isNull(users.deactivatedAt)),
    )
    .limit(1);
  return user;
}

/**
 * Creates the account and its first verification code. When the e-mail is taken (any case), creates
 * nothing and tells the caller who owns it, so the route can answer exactly as for a new account.
 * `queueCodeMail` runs in the creating transaction: the account and its code's mail exist together.
 */
export async function register(
  db: Db,
  input: RegistrationBody & { email: string },
  locale: Locale,
  queueCodeMail: (tx: Db, code: string) => Promise<void>,
): Promise<
  | { created: true; id: string; email: string }
  | { created: false; id: string; email: string; owner: { email: string; username: string; locale: string } }
> {
  const email = normalizeEmail(input.email);
  // Hash before looking: both outcomes then take the same time.
  const passwordHash = await hashPassword(input.password);
  const taken = async () => {
    const owner = await findActiveUserByEmail(db, email);
    return owner && { created: false as const, id: randomUUID(), email, owner };
  };
  const existing = await taken();
  if (existing) return existing;
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          role: input.userRole,
          username: input.username.trim(),
          phone: input.userRole === "patient" ? input.phone : null,
          locale,
        })
        .returning({ id: users.id });
      if (input.userRole === "patient") {
        await tx.insert(patients).values({ userId: user.id });
      } else {
        await tx.insert(doctors).values({
          userId: user.id,
          serialNumber: input.serial_number.trim(),
          contact: input.contact.trim(),
          verification: "pending",
        });
      }
      const code = await issueCode(tx, user.id, "verify");
      if (!code) throw new Error("a new account already had a verification code");
      await queueCodeMail(tx, code);
      return { created: true as const, id: user.id, email };
    });
  } catch (error) {
    // Two registrations raced for the same address: the loser answers like any taken address.
    if (isUniqueViolation(error, "users_email_lower")) {
      const raced = await taken();
      if (raced) return raced;
    }
    throw error;
  }
}

const ACTIVE = ["pending", "proposed", "confirmed"] as const;

/**
 * Erases the account for good: personal fields, credentials, codes, sessions, and its numbers and
 * texts in the SMS outbox (what was not sent yet is not sent). Future
 * appointments on either side are cancelled and pending proposals withdrawn; past records stay
 * for the other party, shown as 'Deleted user'. The same e-mail can register again.
 */
export async function deleteAccount(db: Db, userId: string) {
  await db.transaction(async (tx) => {
    const now = new Date();
    const [user] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw notFound("User not found");

    const cancelled = await tx
      .update(appointments)
      .set({ status: "cancelled", updatedAt: now })
      .where(
        and(
          or(eq(appointments.patientId, userId), eq(appointments.doctorId, userId)),
          gt(appointments.startsAt, now),
          inArray(appointments.status, [...ACTIVE]),
        ),
      )
      .returning({ id: appointments.id });

    // The doctor's pending proposals, and any proposal on the patient's cancelled requests.
    const cancelledIds = cancelled.map((a) => a.id);
    const withdrawn = await tx
      .update(proposals)
      .set({ status: "rejected", updatedAt: now })
      .where(
        and(
          eq(proposals.status, "pending"),
          cancelledIds.length
            ? or(eq(proposals.doctorId, userId), inArray(proposals.appointmentId, cancelledIds))
            : eq(proposals.doctorId, userId),
        ),
      )
      .returning({ appointmentId: proposals.appointmentId });
    // A request left without any pending proposal is open again (as when its last one is rejected).
    const touched = [...new Set(withdrawn.map((p) => p.appointmentId))];
    if (touched.length) {
      await tx
        .update(appointments)
        .set({ status: "pending", updatedAt: now })
        .where(
          and(
            inArray(appointments.id, touched),
            eq(appointments.status, "proposed"),
            sql`not exists (select 1 from ${proposals} where ${proposals.appointmentId} = ${appointments.id} and ${proposals.status} = 'pending')`,
          ),
        );
    }

    await tx
      .update(users)
      .set({
        email: `deleted-${userId}@invalid`,
        // Not an argon2 hash, so no password can ever match it.
        passwordHash: "!deleted",
        username: "",
        phone: null,
        phoneVerified: false,
        sms: false,
        address: null,
        gender: null,
        dateOfBirth: null,
        avatarUrl: null,
        countryId: null,
        cityId: null,
        otpVerified: false,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    await tx.update(patients).set({ profession: null }).where(eq(patients.userId, userId));
    await tx
      .update(doctors)
      .set({ contact: null, biography: null, serialNumber: "" })
      .where(eq(doctors.userId, userId));
    await deleteCodes(tx, userId);
    await eraseSmsOf(tx, userId);
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
    await revokeAllTokens(tx, userId);
    await revokeFeeds(tx, userId);
  });
}
