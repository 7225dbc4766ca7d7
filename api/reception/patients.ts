// Patient records at the front desk (docs/product.md, The front desk): made with a name and a phone,
// found by the full number (any patient) or by name (the patients of the doctors served and the
// desk's records). One phone is one patient's: a number any patient already has answers 409
// phone_taken with them, so the desk books for that one instead of making a twin.
import { randomBytes } from "node:crypto";
import { and, asc, eq, ilike, inArray, isNotNull, isNull, not, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { DESK_SEARCH_MAX } from "../../contract/constants.ts";
import { isUuid } from "../../contract/fields.ts";
import type { DeskPatient, deskPatientBody } from "../../contract/reception.ts";
import type { z } from "zod";
import { auditPatients } from "../audit.ts";
import { hashPassword } from "../auth/password.ts";
import { CLAIM_ATTEMPTS, pendingPhoneSignUp } from "../auth/phone-accounts.ts";
import type { Db } from "../db/index.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { appointments, patients, users } from "../db/schema.ts";
import { ApiError, conflict, notFound, type AuthUser } from "../http.ts";
import { containsPattern } from "../query.ts";
import { lockPhone } from "../phone.ts";

const maker = alias(users, "record_maker");
const consentTaker = alias(users, "consent_taker");

const recordColumns = {
  id: users.id,
  username: users.username,
  phone: users.phone,
  email: users.email,
  dateOfBirth: users.dateOfBirth,
  locale: users.locale,
  createdAt: users.createdAt,
  createdById: users.createdBy,
  createdByName: maker.username,
  smsConsentAt: users.smsConsentAt,
  smsConsentMethod: users.smsConsentMethod,
  smsConsentById: users.smsConsentBy,
  smsConsentByName: consentTaker.username,
  otpVerified: users.otpVerified,
  claimAttempts: users.claimAttempts,
};

const livePatient = and(eq(users.role, "patient"), isNull(users.deletedAt));

async function records(db: Db, where: ReturnType<typeof and>): Promise<DeskPatient[]> {
  const rows = await db
    .select(recordColumns)
    .from(users)
    .leftJoin(maker, eq(maker.id, users.createdBy))
    .leftJoin(consentTaker, eq(consentTaker.id, users.smsConsentBy))
    .where(and(livePatient, where))
    .orderBy(asc(users.username), asc(users.id))
    .limit(DESK_SEARCH_MAX);
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    phone: r.phone,
    email: r.email,
    dateOfBirth: r.dateOfBirth,
    language: r.locale === "en" ? "en" : "fr",
    online: r.createdById === null,
    smsConsent: r.smsConsentAt
      ? {
          at: r.smsConsentAt.toISOString(),
          by: r.smsConsentById ? { id: r.smsConsentById, username: r.smsConsentByName ?? "" } : null,
          method: r.smsConsentMethod ?? "in_person",
        }
      : null,
    createdBy: r.createdById ? { id: r.createdById, username: r.createdByName ?? "" } : null,
    createdAt: r.createdAt.toISOString(),
    claimLocked: r.createdById !== null && !r.otpVerified && r.claimAttempts >= CLAIM_ATTEMPTS,
  }));
}

/**
 * Whoever has this number (E.164): an identity phone, a desk record, an account's contact phone;
 * not a sign-up by phone still waiting for its SMS code (anyone may type any number there).
 */
const withPhone = (db: Db, phone: string) =>
  db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(livePatient, eq(users.phone, phone), not(pendingPhoneSignUp)))
    .orderBy(asc(users.createdAt))
    .limit(DESK_SEARCH_MAX);

/** 409 phone_taken with the patients who have the number (contract/reception.ts phoneTaken). */
const phoneTaken = (found: { id: string; username: string }[]) =>
  new ApiError(409, "This phone number is already a patient's", "phone_taken", { patients: found });

/** A record made at the desk; the receptionist is recorded as its maker and as the consent's taker. */
export async function createDeskPatient(
  db: Db,
  desk: AuthUser,
  body: z.output<typeof deskPatientBody>,
): Promise<DeskPatient> {
  // Nobody signs in with this password: a record is claimed by signing up with its phone.
  const passwordHash = await hashPassword(randomBytes(32).toString("hex"));
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      // Two desks typing one phone at once make one record.
      await lockPhone(tx, body.phone);
      const found = await withPhone(tx, body.phone);
      if (found.length) throw phoneTaken(found);
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          email: body.email ?? null,
          username: body.username,
          phone: body.phone,
          // Recorded at the desk, the number is the patient's identity (docs/product.md, The front desk).
          phoneVerified: true,
          sms: body.smsConsent,
          smsConsentAt: body.smsConsent ? now : null,
          smsConsentBy: body.smsConsent ? desk.id : null,
          smsConsentMethod: body.smsConsent ? body.smsConsentMethod : null,
          dateOfBirth: body.dateOfBirth ?? null,
          locale: body.language,
          passwordHash,
          role: "patient",
          createdBy: desk.id,
        })
        .returning({ id: users.id });
      await tx.insert(patients).values({ userId: user.id });
      return user.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, "users_desk_phone")) throw phoneTaken(await withPhone(db, body.phone));
    if (isUniqueViolation(err, "users_email_lower")) throw conflict("This e-mail is already in use", "email_taken");
    throw err;
  }
  await auditPatients(db, desk.id, [id], "create", "patient", id);
  const [record] = await records(db, eq(users.id, id));
  return record;
}

/**
 * The desk's search: by the full number any patient, by a part of the name only the patients of
 * the doctors served (an appointment with one of them) and the desk's records. Each patient shown
 * is in their 'Who saw my data'.
 */
export async function searchDeskPatients(
  db: Db,
  desk: AuthUser,
  served: string[],
  query: { phone?: string; q?: string },
): Promise<DeskPatient[]> {
  const byName = query.q
    ? and(
        ilike(users.username, containsPattern(query.q)),
        or(
          isNotNull(users.createdBy),
          served.length
            ? sql`exists (select 1 from ${appointments} a where a.patient_id = ${users.id} and ${inArray(sql`a.doctor_id`, served)})`
            : undefined,
        ),
      )
    : undefined;
  // A sign-up by phone still waiting for its code is nobody's record yet (anyone may type any number).
  const found = await records(
    db,
    and(query.phone ? eq(users.phone, query.phone) : undefined, byName, not(pendingPhoneSignUp)),
  );
  await auditPatients(
    db,
    desk.id,
    found.map((p) => p.id),
    "read",
    "patient",
  );
  return found;
}

/** The patients a desk may open: the desk's records and the patients of the doctors served. */
const reachableBy = (served: string[]) =>
  or(
    isNotNull(users.createdBy),
    served.length
      ? sql`exists (select 1 from ${appointments} a where a.patient_id = ${users.id} and ${inArray(sql`a.doctor_id`, served)})`
      : undefined,
  );

/** One patient's record, opened by the desk: a desk record or a patient of a doctor served, else 404. */
async function reachableRecord(db: Db, served: string[], id: string): Promise<DeskPatient> {
  if (!isUuid(id)) throw notFound("Patient not found");
  const [record] = await records(db, and(eq(users.id, id), reachableBy(served)));
  if (!record) throw notFound("Patient not found");
  return record;
}

/** One patient's record, opened by the desk: a desk record or a patient of a doctor served, else 404. */
export async function openDeskPatient(db: Db, desk: AuthUser, served: string[], id: string): Promise<DeskPatient> {
  const record = await reachableRecord(db, served, id);
  await auditPatients(db, desk.id, [id], "read", "patient", id);
  return record;
}

/**
 * The desk unlocks the claim of a record that 5 wrong dates of birth locked, once it has checked the
 * person's identity in person: its count of wrong dates goes back to 0 (docs/product.md, The front
 * desk). Idempotent: a record not locked stays as it is. A record that is already an account
 * (claimed, or made online) has no claim to unlock: 409 already_claimed.
 */
export async function unlockDeskClaim(db: Db, desk: AuthUser, served: string[], id: string): Promise<DeskPatient> {
  await reachableRecord(db, served, id);
  const [unlocked] = await db
    .update(users)
    .set({ claimAttempts: 0 })
    .where(and(eq(users.id, id), isNotNull(users.createdBy), eq(users.otpVerified, false)))
    .returning({ id: users.id });
  if (!unlocked) throw conflict("This record is already a patient's account", "already_claimed");
  await auditPatients(db, desk.id, [id], "update", "claim", id);
  return reachableRecord(db, served, id);
}

/** A live patient the desk may book for (any, found by phone or name), else 404. */
export async function requirePatient(db: Db, id: string) {
  const [row] = isUuid(id)
    ? await db
        .select({ id: users.id })
        .from(users)
        .where(and(livePatient, eq(users.id, id)))
    : [];
  if (!row) throw notFound("Patient not found");
  return row.id;
}
