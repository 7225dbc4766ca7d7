// /settings: the signed-in user's own choices that the API acts on (docs/mail.md, docs/sms.md): the
// language of their mail and texts, whether they receive appointment notices and reminders by mail,
// and by SMS once their phone is verified by a code sent to it.
import { Router, type Request } from "express";
import { and, eq, isNull } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { users } from "../db/schema.ts";
import { authenticate, badRequest, conflict, currentUser, parse } from "../http.ts";
import { emailCode, emailToAdd, settingsBody, type MailSettings } from "../../contract/settings.ts";
import { codeBody } from "../../contract/auth.ts";
import { normalizePhone } from "../../contract/phone.ts";
import { CODE_TTL_SECONDS, checkCode, codeError, issueCode, resendTooSoon } from "../auth/codes.ts";
import { createThrottles } from "../throttle.ts";
import { queueCodeSms } from "../sms/outbox.ts";
import { oneSms, smsText } from "../sms/texts.ts";
import { toLocale, verificationCodeMail } from "../mail/templates.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { normalizeEmail } from "../auth/accounts.ts";
import { lockPhone, requireSmsCountry } from "../phone.ts";
import { phoneHolder } from "../auth/phone-accounts.ts";

async function readSettings(db: Db, userId: string, smsAvailable: boolean): Promise<MailSettings> {
  const [row] = await db
    .select({
      language: users.locale,
      notifications: users.mailNotifications,
      reminders: users.mailReminders,
      phone: users.phone,
      phoneVerified: users.phoneVerified,
      sms: users.sms,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, userId));
  return { ...row, language: row.language === "fr" ? "fr" : "en", smsAvailable };
}

const clientAddress = (req: Request) => req.ip ?? "unknown";

export function settingsRouter({ db, mailer, codeResendSeconds, smsAvailable = true, smsCountries }: ApiDeps) {
  const router = Router();
  const signedIn = authenticate(db);
  const limits = createThrottles(db);

  router.get("/", signedIn, async (req, res) => {
    res.json(await readSettings(db, currentUser(req).id, smsAvailable));
  });

  router.put("/", signedIn, async (req, res) => {
    const body = parse(settingsBody, req.body);
    const id = currentUser(req).id;
    if (body.sms && !smsAvailable) throw conflict("Text messages are not available on this server", "sms_unavailable");
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          locale: body.language,
          mailNotifications: body.notifications,
          mailReminders: body.reminders,
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
      if (body.sms === undefined) return;
      // SMS on only for a verified phone, checked in the statement that sets it.
      const [set] = await tx
        .update(users)
        .set({ sms: body.sms })
        .where(and(eq(users.id, id), body.sms ? eq(users.phoneVerified, true) : undefined))
        .returning({ id: users.id });
      if (!set) throw conflict("Verify your phone before turning text messages on", "phone_unverified");
    });
    res.json(await readSettings(db, id, smsAvailable));
  });

  /** The user's phone as stored, and as the SMS goes to it (E.164), or a refusal saying why there is none. */
  async function phoneOf(userId: string) {
    if (!smsAvailable) throw conflict("Text messages are not available on this server", "sms_unavailable");
    const [user] = await db
      .select({ phone: users.phone, locale: users.locale })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (!user?.phone) throw conflict("Add a phone number to your profile first", "phone_missing");
    const to = normalizePhone(user.phone);
    if (!to) throw badRequest("Please enter a valid phone number", "invalid_phone");
    return { stored: user.phone, to, locale: toLocale(user.locale) };
  }

  router.post("/phone/code", signedIn, async (req, res) => {
    const id = currentUser(req).id;
    await limits.perAddress(res, "resend", clientAddress(req));
    const phone = await phoneOf(id);
    requireSmsCountry(phone.to, smsCountries);
    await limits.smsCode(res, id, phone.to);
    const sent = await db.transaction(async (tx) => {
      // Bound to the number: a code cannot verify another number put in its place meanwhile.
      const code = await issueCode(tx, id, "phone", { minIntervalSeconds: codeResendSeconds, subject: phone.to });
      if (code)
        await queueCodeSms(tx, {
          userId: id,
          phone: phone.to,
          text: oneSms(smsText(phone.locale, "code", { code })),
          validSeconds: CODE_TTL_SECONDS,
        });
      return Boolean(code);
    });
    if (!sent) throw resendTooSoon();
    mailer.wake();
    res.json({ message: "Code sent by SMS" });
  });

  router.post("/phone/verify", signedIn, async (req, res) => {
    const id = currentUser(req).id;
    const { otpCode } = parse(codeBody, req.body);
    await limits.perAddress(res, "codeCheck", clientAddress(req));
    const phone = await phoneOf(id);
    const result = await db.transaction(async (tx) => {
      // A verified phone is one person's sign-in identity (docs/sms.md, Signing in with a phone).
      await lockPhone(tx, phone.to);
      const holder = await phoneHolder(tx, phone.to);
      if (holder && holder.id !== id) return "taken" as const;
      const checked = await checkCode(tx, id, "phone", otpCode, phone.to);
      // Kept in E.164, the form the SMS went to; only if the number is still the one the code went to.
      if (checked.ok)
        await tx
          .update(users)
          .set({ phone: phone.to, phoneVerified: true })
          .where(and(eq(users.id, id), eq(users.phone, phone.stored)));
      return checked;
    });
    if (result === "taken") throw conflict("This phone number is already another patient's", "phone_taken");
    if (!result.ok) throw codeError(result.reason);
    res.json(await readSettings(db, id, smsAvailable));
  });

  // ---- an e-mail for a patient who signs in with their phone (docs/sms.md) ----

  /** The signed-in patient's account while it has no e-mail; 409 once it has one. */
  async function withoutEmail(userId: string) {
    const [user] = await db
      .select({ email: users.email, username: users.username, locale: users.locale })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (user?.email !== null) throw conflict("This account already has an e-mail address", "email_taken");
    return user;
  }

  router.post("/email/code", signedIn, async (req, res) => {
    const id = currentUser(req).id;
    const address = normalizeEmail(parse(emailToAdd, req.body).email);
    await limits.perAddress(res, "resend", clientAddress(req));
    const user = await withoutEmail(id);
    if (!(await limits.mailSlot("verify", address))) throw resendTooSoon();
    // Bound to the address: the code proves this mailbox, not another typed in its place. Whether
    // the address is someone's is said only to whoever holds the code (no enumeration).
    await db.transaction(async (tx) => {
      const code = await issueCode(tx, id, "verify", { minIntervalSeconds: 0, subject: address });
      if (code)
        await mailer.enqueue(tx, {
          to: address,
          ...verificationCodeMail(toLocale(user.locale), { username: user.username, code }),
        });
    });
    mailer.wake();
    res.json({ message: "Code sent by e-mail" });
  });

  router.post("/email/verify", signedIn, async (req, res) => {
    const id = currentUser(req).id;
    const body = parse(emailCode, req.body);
    const address = normalizeEmail(body.email);
    await limits.perAddress(res, "codeCheck", clientAddress(req));
    await withoutEmail(id);
    let result: Awaited<ReturnType<typeof checkCode>>;
    try {
      result = await db.transaction(async (tx) => {
        const checked = await checkCode(tx, id, "verify", body.otpCode, address);
        if (checked.ok)
          await tx
            .update(users)
            .set({ email: address, updatedAt: new Date() })
            .where(and(eq(users.id, id), isNull(users.email)));
        return checked;
      });
    } catch (error) {
      if (isUniqueViolation(error, "users_email_lower"))
        throw conflict("This e-mail is already another account's", "email_taken");
      throw error;
    }
    if (!result.ok) throw codeError(result.reason);
    res.json(await readSettings(db, id, smsAvailable));
  });

  return router;
}
