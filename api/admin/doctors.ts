// Doctor verification (docs/product.md, Accounts and codes): the admin lists registrations by verification
// status, approves one with the specialities it practises, or rejects it; the doctor is told by
// mail. The /admin router and the `npm run admin` CLI both call these functions.
import { and, asc, count, eq, ilike, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { doctorSpecialities, doctors, specialities, users } from "../db/schema.ts";
import type { Mailer } from "../mail/index.ts";
import { doctorApprovedMail, doctorRejectedMail, toLocale, type Locale } from "../mail/templates.ts";
import { ApiError, badRequest, conflict, notFound } from "../http.ts";
import { isUuid } from "../../contract/fields.ts";
import type { DoctorVerification as Verification } from "../../contract/constants.ts";
import { containsPattern, pageInfo } from "../query.ts";
import { hashPassword } from "../auth/password.ts";
import { specialitiesOf } from "../speciality/badges.ts";

const doctorNotFound = () => notFound("Doctor not found");

/**
 * Doctor registrations matching `where`, oldest first (the queue order), with their specialities;
 * one page of them when `page` is given.
 */
async function adminDoctors(db: Db, where: SQL | undefined, page?: { page: number; limit: number }) {
  const query = db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      serial_number: doctors.serialNumber,
      contact: doctors.contact,
      createdAt: users.createdAt,
      verification: doctors.verification,
      verifiedAt: doctors.verifiedAt,
    })
    .from(users)
    .innerJoin(doctors, eq(doctors.userId, users.id))
    .where(and(eq(users.role, "doctor"), isNull(users.deletedAt), where))
    .orderBy(asc(users.createdAt), asc(users.id))
    .$dynamic();
  const rows = await (page ? query.limit(page.limit).offset((page.page - 1) * page.limit) : query);
  const badges = await specialitiesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    verifiedAt: r.verifiedAt?.toISOString() ?? null,
    specialities: (badges.get(r.id) ?? []).map(({ id, name, nameFr }) => ({ id, name, nameFr })),
  }));
}

/** Every registration of one status (the CLI's list). */
export const listDoctorsByVerification = (db: Db, status: Verification) =>
  adminDoctors(db, eq(doctors.verification, status));

/**
 * One page of the registrations of one status, those whose name holds `search` when it is given, with
 * the paging fields every paged list has. The name test is the directory's (ILIKE '%x%' with the
 * wildcards escaped), which the doctors' trigram index users_doctor_name_trgm serves.
 */
export async function pageDoctorsByVerification(
  db: Db,
  status: Verification,
  page: { page: number; limit: number },
  search?: string,
) {
  const where = and(
    eq(doctors.verification, status),
    search ? ilike(users.username, containsPattern(search)) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    adminDoctors(db, where, page),
    db
      .select({ total: count() })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.id))
      .where(and(eq(users.role, "doctor"), isNull(users.deletedAt), where)),
  ]);
  return { doctors: rows, ...pageInfo(total, page.page, page.limit) };
}

const loadAdminDoctor = async (db: Db, id: string) => (await adminDoctors(db, eq(users.id, id)))[0];

/** The doctor account behind an id or an e-mail (case-insensitive); 404 for anything else. */
export async function findDoctorId(db: Db, idOrEmail: string): Promise<string> {
  const byEmail = idOrEmail.includes("@");
  if (!byEmail && !isUuid(idOrEmail)) throw doctorNotFound();
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(doctors, eq(doctors.userId, users.id))
    .where(
      and(
        byEmail ? eq(sql`lower(${users.email})`, idOrEmail.trim().toLowerCase()) : eq(users.id, idOrEmail),
        eq(users.role, "doctor"),
        isNull(users.deletedAt),
      ),
    );
  if (!row) throw doctorNotFound();
  return row.id;
}

/** The patient account behind an e-mail (case-insensitive); 404 for anything else. */
export async function findPatientId(db: Db, email: string): Promise<string> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.email})`, email.trim().toLowerCase()),
        eq(users.role, "patient"),
        isNull(users.deletedAt),
      ),
    );
  if (!row) throw notFound("Patient not found");
  return row.id;
}

/** Speciality ids by English or French name (case-insensitive); an unknown name is a 400. */
export async function specialityIdsByName(db: Db, names: string[]): Promise<number[]> {
  const all = await db
    .select({ id: specialities.id, name: specialities.name, nameFr: specialities.nameFr })
    .from(specialities);
  return names.map((name) => {
    const wanted = name.trim().toLowerCase();
    const found = all.find((s) => s.name.toLowerCase() === wanted || s.nameFr.toLowerCase() === wanted);
    if (!found) throw badRequest(`Unknown speciality: ${name}`, "invalid_speciality");
    return found.id;
  });
}

/** Locks a doctor still awaiting a decision; 404 unknown, 409 already decided. */
async function lockPending(tx: Db, doctorId: string) {
  const [row] = await tx
    .select({ verification: doctors.verification })
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.userId))
    .where(and(eq(doctors.userId, doctorId), isNull(users.deletedAt)))
    .for("update");
  if (!row) throw doctorNotFound();
  if (row.verification !== "pending") throw conflict(`This doctor is already ${row.verification}`, "already_decided");
}

/** Mail after the commit: a mail failure must not undo or hide a decision already taken. */
async function tell(
  db: Db,
  mailer: Mailer,
  doctorId: string,
  compose: (locale: Locale, username: string) => { subject: string; text: string; html: string },
) {
  const [user] = await db
    .select({ email: sql<string>`${users.email}`, username: users.username, locale: users.locale })
    .from(users)
    .where(eq(users.id, doctorId));
  try {
    await mailer.send({ to: user.email, ...compose(toLocale(user.locale), user.username) });
  } catch (err) {
    console.error("[admin] could not mail the doctor about the decision", err instanceof Error ? err.message : err);
  }
}

export async function approveDoctor(db: Db, mailer: Mailer, doctorId: string, specialityIds: number[]) {
  const ids = [...new Set(specialityIds)];
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0))
    throw badRequest("Invalid speciality", "invalid_speciality");
  if (ids.length) {
    const known = await db.select({ id: specialities.id }).from(specialities).where(inArray(specialities.id, ids));
    if (known.length !== ids.length) throw badRequest("Unknown speciality", "invalid_speciality");
  }
  await db.transaction(async (tx) => {
    await lockPending(tx, doctorId);
    await tx
      .update(doctors)
      .set({ verification: "verified", verifiedAt: new Date() })
      .where(eq(doctors.userId, doctorId));
    await tx.delete(doctorSpecialities).where(eq(doctorSpecialities.doctorId, doctorId));
    if (ids.length) await tx.insert(doctorSpecialities).values(ids.map((specialityId) => ({ doctorId, specialityId })));
  });
  await tell(db, mailer, doctorId, (locale, username) => doctorApprovedMail(locale, { username }));
  return loadAdminDoctor(db, doctorId);
}

export async function rejectDoctor(db: Db, mailer: Mailer, doctorId: string, reason?: string | null) {
  const why = reason?.trim() || null;
  if (why && why.length > 500) throw badRequest("The reason must be at most 500 characters", "invalid_reason");
  await db.transaction(async (tx) => {
    await lockPending(tx, doctorId);
    await tx
      .update(doctors)
      .set({ verification: "rejected", verifiedAt: null, rejectionReason: why })
      .where(eq(doctors.userId, doctorId));
  });
  await tell(db, mailer, doctorId, (locale, username) => doctorRejectedMail(locale, { username, reason: why }));
  return loadAdminDoctor(db, doctorId);
}

/** An admin account (scripts only: registration is open to patients and doctors alone). */
export async function createAdminAccount(db: Db, input: { email: string; username: string; password: string }) {
  const email = input.email.trim();
  const username = input.username.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest("Please enter a valid email", "invalid_email");
  if (username.length < 3) throw badRequest("Username must be at least 3 characters", "invalid_username");
  if (input.password.length < 6) throw badRequest("Password must be at least 6 characters", "invalid_password");
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (existing) throw new ApiError(409, "An account with this e-mail already exists", "email_taken");
  const [user] = await db
    .insert(users)
    .values({ email, username, passwordHash: await hashPassword(input.password), role: "admin", otpVerified: true })
    .returning({ id: users.id, email: users.email, username: users.username });
  return user;
}
