// /admin/staff (docs/product.md, The front desk): the admin makes receptionists, says which doctors
// each serves, and deactivates them. A receptionist never signs up: the invitation mails a code
// that sets their password through POST /auth/reset-password, like a forgotten one.
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { Router } from "express";
import type { StaffList, StaffMember, StaffRequest } from "../../contract/admin.ts";
import { createdStaff, staffBody, staffListQuery, staffUpdateBody } from "../../contract/admin.ts";
import { isUuid } from "../../contract/fields.ts";
import { config } from "../../config.ts";
import { hashPassword } from "../auth/password.ts";
import { issueCode } from "../auth/codes.ts";
import { revokeAllTokens } from "../auth/tokens.ts";
import type { Db } from "../db/index.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { doctors, staffDoctors, users } from "../db/schema.ts";
import type { ApiDeps } from "../deps.ts";
import { authenticate, badRequest, conflict, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { pageInfo } from "../query.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { staffInvitationMail, toLocale } from "../mail/templates.ts";

/** How long an invitation's code sets the password: a week, then the admin or 'forgot password' sends another. */
const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

const staffNotFound = () => notFound("Receptionist not found");

/** The doctors given, all of them live doctors, or 400 invalid_doctor. */
async function requireDoctors(db: Db, doctorIds: string[]) {
  if (doctorIds.length === 0) return;
  const found = await db
    .select({ id: doctors.userId })
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.userId))
    .where(and(inArray(doctors.userId, doctorIds), isNull(users.deletedAt)));
  if (found.length !== doctorIds.length) throw badRequest("Unknown doctor", "invalid_doctor");
}

async function createStaff(db: Db, mailer: OutboxMailer, body: StaffRequest & { doctorIds: string[] }) {
  await requireDoctors(db, body.doctorIds);
  // Nobody knows this password: the invitation's code replaces it.
  const passwordHash = await hashPassword(randomBytes(32).toString("hex"));
  try {
    const id = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email: body.email, username: body.username, passwordHash, role: "receptionist", locale: "fr" })
        .returning({ id: users.id, locale: users.locale });
      if (body.doctorIds.length) {
        await tx.insert(staffDoctors).values(body.doctorIds.map((doctorId) => ({ staffId: user.id, doctorId })));
      }
      const code = await issueCode(tx, user.id, "reset", { ttlSeconds: INVITATION_TTL_SECONDS });
      if (!code) throw new Error("A new account has no earlier code");
      const link = `${config().publicUrl}/reset-password`;
      await mailer.enqueue(tx, {
        to: body.email,
        ...staffInvitationMail(toLocale(user.locale), { username: body.username, code, email: body.email, link }),
      });
      return user.id;
    });
    mailer.wake();
    return id;
  } catch (err) {
    if (isUniqueViolation(err, "users_email_lower")) throw conflict("This e-mail is already in use", "email_taken");
    throw err;
  }
}

/** Every receptionist with the doctors they serve: active first, then by name. */
const staffOf = (only?: string) =>
  and(eq(users.role, "receptionist"), isNull(users.deletedAt), only ? eq(users.id, only) : undefined);

async function listStaff(db: Db, only?: string, page = { page: 1, limit: 1 }): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: sql<string>`${users.email}`,
      createdAt: users.createdAt,
      deactivatedAt: users.deactivatedAt,
      invitationAccepted: users.otpVerified,
      doctors: sql<
        { id: string; username: string }[]
      >`coalesce((select json_agg(json_build_object('id', d.id, 'username', d.username) order by d.username, d.id)
        from staff_doctors s join users d on d.id = s.doctor_id where s.staff_id = "users"."id"), '[]')`,
    })
    .from(users)
    .where(staffOf(only))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    deactivatedAt: r.deactivatedAt?.toISOString() ?? null,
  }));
}

async function findStaff(db: Db, id: string): Promise<StaffMember> {
  if (!isUuid(id)) throw staffNotFound();
  const [member] = await listStaff(db, id);
  if (!member) throw staffNotFound();
  return member;
}

export function staffRouter({ db, mailer }: ApiDeps) {
  const router = Router();
  const adminOnly = authenticate(db, "admin");

  router.get("/staff", adminOnly, async (req, res) => {
    const page = parse(staffListQuery, req.query);
    const [staff, [{ total }]] = await Promise.all([
      listStaff(db, undefined, page),
      db.select({ total: count() }).from(users).where(staffOf()),
    ]);
    res.json({ staff, ...pageInfo(total, page.page, page.limit) } satisfies StaffList);
  });

  router.post("/staff", adminOnly, idempotent(db), async (req, res) => {
    const id = await createStaff(db, mailer, parse(staffBody, req.body));
    res.status(201).json(createdStaff.parse({ id }));
  });

  // A new list of doctors replaces the old one; a deactivated receptionist keeps theirs as it was.
  // One receptionist, wherever they are in the pages (the staff page's dialogs open on one).
  router.get("/staff/:id", adminOnly, async (req, res) => {
    res.json(await findStaff(db, String(req.params.id)));
  });

  router.put("/staff/:id", adminOnly, idempotent(db), async (req, res) => {
    const { doctorIds } = parse(staffUpdateBody, req.body);
    const member = await findStaff(db, String(req.params.id));
    if (member.deactivatedAt) throw conflict("This receptionist is deactivated", "already_final");
    await requireDoctors(db, doctorIds);
    await db.transaction(async (tx) => {
      await tx.delete(staffDoctors).where(eq(staffDoctors.staffId, member.id));
      if (doctorIds.length) {
        await tx.insert(staffDoctors).values(doctorIds.map((doctorId) => ({ staffId: member.id, doctorId })));
      }
    });
    res.json(await findStaff(db, member.id));
  });

  // Deactivation: no more login, every token revoked now; their records, bookings and the access
  // log's entries stay, with their name.
  router.delete("/staff/:id", adminOnly, idempotent(db), async (req, res) => {
    const member = await findStaff(db, String(req.params.id));
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ deactivatedAt: sql`coalesce(${users.deactivatedAt}, now())`, updatedAt: new Date() })
        .where(eq(users.id, member.id));
      await revokeAllTokens(tx, member.id);
    });
    res.json(await findStaff(db, member.id));
  });

  return router;
}
