// /auth (docs/product.md, The API): register, verifyUser, login, delete-account and the doctor profile
// gate, plus the extensions resendVerification, logout, forgot-password and reset-password.
// Anonymous calls answer alike whether or not an account exists (no enumeration).
import { Router, type Request } from "express";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { users } from "../db/schema.ts";
import { authenticate, conflict, currentUser, forbidden, parse, ApiError } from "../http.ts";
import {
  byPhone,
  codeBody,
  doctorRegistrationBody,
  emailBody,
  loginBody,
  patientRegistrationBody,
  phoneBody,
  phoneLoginBody,
  phoneResetBody,
  registrationRole,
  resetBody,
  verifyBody,
  type LoggedIn,
  type Notice,
  type ProfileVerified,
  type Registered,
  type Unverified,
  type WrongRole,
} from "../../contract/auth.ts";
import { isUuid } from "../../contract/fields.ts";
import type { MailMessage } from "../mail/index.ts";
import {
  profileCodeMail,
  registrationAttemptMail,
  resetCodeMail,
  toLocale,
  verificationCodeMail,
  type Locale,
  type MailContent,
} from "../mail/templates.ts";
import { deleteAccount, findActiveUserByEmail, normalizeEmail, register, sessionUser } from "./accounts.ts";
import { CODE_TTL_SECONDS, checkCode, codeError, hasLiveCode, issueCode, resendTooSoon } from "./codes.ts";
import {
  findPendingByPhone,
  findResettableByPhone,
  findSignInByPhone,
  pendingPhoneSignUp,
  registerByPhone,
  verifyPhoneSignUp,
  type PhoneVerification,
} from "./phone-accounts.ts";
import { requireSmsCountry } from "../phone.ts";
import { queueAlertSms, queueCodeSms } from "../sms/outbox.ts";
import { oneSms, smsText } from "../sms/texts.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { createThrottles, THROTTLE_MESSAGES } from "../throttle.ts";
import { issueToken, revokeAllTokens, revokeToken } from "./tokens.ts";

const AUTH_MESSAGES = {
  loginFailed: "Login failed",
  wrongRole: {
    patient: "This is a patient account: choose 'Patient' to log in",
    doctor: "This is a doctor account: choose 'Doctor' to log in",
  },
  unverified: "Please verify your account first",
  tooManyLogins: THROTTLE_MESSAGES.tooManyLogins,
  verificationSent: "If an account needs verification, a new code has been sent to this e-mail.",
  resetSent: "If an account exists for this e-mail, a reset code has been sent.",
  verificationTexted: "If an account needs verification, a new code has been sent to this number.",
  resetTexted: "If an account signs in with this number, a reset code has been sent to it by SMS.",
  smsUnavailable: "Text messages are not available on this server: sign up with an e-mail address",
  passwordReset: "Your password has been reset. You can now log in.",
  accountDeleted: "Account deleted successfully",
  profileOtpSent: "OTP sent to your email successfully",
  profileOtpResent: "OTP resent to your email successfully",
  profileVerified: "Profile access verified successfully",
  profileInvalidCode: "Invalid verification code",
} as const;

// ---- helpers -------------------------------------------------------------------------------------

/** The mail language: the explicit choice, else the first of en/fr in Accept-Language, else en. */
function requestLocale(req: Request, explicit?: string): Locale {
  if (explicit === "en" || explicit === "fr") return explicit;
  const ranked = (req.get("accept-language") ?? "")
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { lang: tag.trim().toLowerCase().slice(0, 2), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((x) => (x.lang === "en" || x.lang === "fr") && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked[0]?.lang === "fr" ? "fr" : "en";
}

const mail = (to: string, content: MailContent): MailMessage => ({ to, ...content });

/** The client address the rate limits count by (TRUST_PROXY decides how it is read). */
const clientAddress = (req: Request) => req.ip ?? "unknown";

/** A constant-cost stand-in so unknown e-mails take as long as wrong passwords. */
let dummyHash: Promise<string> | undefined;
const decoyHash = () => (dummyHash ??= hashPassword("decoy-password-for-timing"));

type PhoneVerificationFailure = Extract<PhoneVerification, { ok: false }>["reason"];

/** A refused phone verification as an answer (docs/errors.md). */
function phoneVerificationError(reason: PhoneVerificationFailure): ApiError {
  switch (reason) {
    case "phone_taken":
      return new ApiError(409, "This phone number is already another patient's", "phone_taken");
    case "date_of_birth_required":
      return new ApiError(400, "Please give your date of birth", "date_of_birth_required");
    case "date_of_birth_mismatch":
      return new ApiError(400, "The date of birth does not match", "date_of_birth_mismatch");
    case "claim_locked":
      return new ApiError(409, "Please ask the front desk to help you sign in", "claim_locked");
    default:
      return codeError(reason);
  }
}

// ---- routes --------------------------------------------------------------------------------------

export function authRouter({ db, mailer, codeResendSeconds, smsAvailable = true, smsCountries }: ApiDeps) {
  const router = Router();
  const signedIn = authenticate(db);
  const doctorOnly = authenticate(db, "doctor");
  const limits = createThrottles(db);
  // Mails are queued (in the transaction of their cause where there is one) and sent by the outbox
  // worker: no request waits for the SMTP server, so answers take the same time for every address.
  /** A new code and its mail, together or not at all. */
  const codeMail = async (
    user: { id: string; email: string; username: string; locale: string },
    purpose: "verify" | "reset" | "profile",
    minIntervalSeconds?: number,
  ) => {
    const compose = purpose === "verify" ? verificationCodeMail : purpose === "reset" ? resetCodeMail : profileCodeMail;
    const sent = await db.transaction(async (tx) => {
      const code = await issueCode(
        tx,
        user.id,
        purpose,
        minIntervalSeconds === undefined ? undefined : { minIntervalSeconds },
      );
      if (code)
        await mailer.enqueue(tx, mail(user.email, compose(toLocale(user.locale), { username: user.username, code })));
      return Boolean(code);
    });
    if (sent) mailer.wake();
    return sent;
  };

  /** A new code bound to `phone` and its text message, together or not at all (the per-number limits were taken). */
  const codeSms = async (user: { id: string; locale: string }, phone: string, purpose: "verify" | "reset") => {
    const sent = await db.transaction(async (tx) => {
      const code = await issueCode(tx, user.id, purpose, { minIntervalSeconds: 0, subject: phone });
      if (code)
        await queueCodeSms(tx, {
          userId: user.id,
          phone,
          text: oneSms(smsText(toLocale(user.locale), "code", { code })),
          validSeconds: CODE_TTL_SECONDS,
        });
      return Boolean(code);
    });
    if (sent) mailer.wake();
  };

  /** Before anything goes to `phone` from an anonymous route: SMS here, the country, the limits. */
  const mayText = async (req: Request, res: Parameters<typeof limits.phoneCode>[0], phone: string) => {
    if (!smsAvailable) throw conflict(AUTH_MESSAGES.smsUnavailable, "sms_unavailable");
    requireSmsCountry(phone, smsCountries);
    await limits.phoneCode(res, phone, clientAddress(req), codeResendSeconds);
  };

  /** Registration with a phone and no e-mail (docs/sms.md, Signing in with a phone). */
  const registerWithPhone = async (
    req: Request,
    res: Parameters<typeof limits.phoneCode>[0],
    input: { username: string; phone: string; password: string; locale?: string },
  ) => {
    // Refusals that hold for any number come first, so they say nothing about an account.
    if (!smsAvailable) throw conflict(AUTH_MESSAGES.smsUnavailable, "sms_unavailable");
    requireSmsCountry(input.phone, smsCountries);
    await limits.perAddress(res, "register", clientAddress(req));
    await limits.phoneCode(res, input.phone, clientAddress(req), codeResendSeconds);
    const lang = requestLocale(req, input.locale);
    const outcome = await registerByPhone(db, input, lang, (tx, userId, code) =>
      queueCodeSms(tx, {
        userId,
        phone: input.phone,
        text: oneSms(smsText(lang, "code", { code })),
        validSeconds: CODE_TTL_SECONDS,
      }),
    );
    if (!outcome.created) {
      const owner = outcome.owner;
      await db.transaction((tx) =>
        queueAlertSms(tx, {
          userId: owner.id,
          phone: input.phone,
          text: oneSms(smsText(toLocale(owner.locale), "signUpAttempt")),
        }),
      );
    }
    mailer.wake();
    res.status(201).json({ id: outcome.id, email: null, phone: input.phone } satisfies Registered);
  };

  router.post("/register", async (req, res) => {
    const { userRole } = parse(registrationRole, req.body);
    const input =
      userRole === "patient" ? parse(patientRegistrationBody, req.body) : parse(doctorRegistrationBody, req.body);
    const address = input.email;
    if (address === undefined) {
      if (input.userRole === "patient") await registerWithPhone(req, res, input);
      return;
    }
    await limits.perAddress(res, "register", clientAddress(req));
    const lang = requestLocale(req, input.locale);
    const outcome = await register(db, { ...input, email: address }, lang, (tx, code) =>
      mailer.enqueue(
        tx,
        mail(normalizeEmail(address), verificationCodeMail(lang, { username: input.username.trim(), code })),
      ),
    );
    // The resend slot is claimed in both cases so a follow-up resend answers alike.
    await limits.mailSlot("verify", outcome.email);
    if (outcome.created) {
      mailer.wake();
    } else if (await limits.mailSlot("notice", outcome.email)) {
      const owner = outcome.owner;
      await mailer.send(
        mail(owner.email, registrationAttemptMail(toLocale(owner.locale), { username: owner.username })),
      );
    }
    res.status(201).json({ id: outcome.id, email: outcome.email, phone: null } satisfies Registered);
  });

  router.put("/verifyUser/:id", async (req, res) => {
    const { otpCode: code, dateOfBirth } = parse(verifyBody, req.body);
    const id = String(req.params.id);
    // An unknown or malformed id answers like a wrong code.
    if (!isUuid(id)) throw codeError("invalid_code");
    await limits.perAddress(res, "codeCheck", clientAddress(req));
    const [signUp] = await db
      .select({ phone: users.phone })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt), pendingPhoneSignUp));
    if (signUp?.phone) {
      const verified = await verifyPhoneSignUp(db, { id, phone: signUp.phone }, code, dateOfBirth);
      if (!verified.ok) throw phoneVerificationError(verified.reason);
      res.json(await sessionUser(db, verified.userId));
      return;
    }
    const result = await db.transaction(async (tx) => {
      const checked = await checkCode(tx, id, "verify", code);
      if (checked.ok) await tx.update(users).set({ otpVerified: true, updatedAt: new Date() }).where(eq(users.id, id));
      return checked;
    });
    if (!result.ok) throw codeError(result.reason);
    res.json(await sessionUser(db, id));
  });

  router.post("/resendVerification", async (req, res) => {
    if (byPhone(req.body)) {
      const { phone } = parse(phoneBody, req.body);
      await limits.perAddress(res, "resend", clientAddress(req));
      await mayText(req, res, phone);
      const signUp = await findPendingByPhone(db, phone);
      if (signUp) await codeSms(signUp, phone, "verify");
      res.json({ message: AUTH_MESSAGES.verificationTexted } satisfies Notice);
      return;
    }
    const { email: address } = parse(emailBody, req.body);
    await limits.perAddress(res, "resend", clientAddress(req));
    if (!(await limits.mailSlot("verify", address))) throw resendTooSoon();
    const user = await findActiveUserByEmail(db, address);
    // The per-address slot already spaced sends; the code row's own interval is not applied twice.
    if (user && !user.otpVerified) await codeMail(user, "verify", 0);
    res.json({ message: AUTH_MESSAGES.verificationSent } satisfies Notice);
  });

  router.post("/login", async (req, res) => {
    const phone = byPhone(req.body);
    const body = phone ? parse(phoneLoginBody, req.body) : parse(loginBody, req.body);
    // The account as the throttles count it: its e-mail, or its number in E.164.
    const account = "phone" in body ? body.phone : body.email;
    const ip = clientAddress(req);
    await limits.beforeLogin(res, account, ip);
    const user =
      "phone" in body ? await findSignInByPhone(db, body.phone) : await findActiveUserByEmail(db, body.email);
    const passwordOk = user
      ? await verifyPassword(user.passwordHash, body.password)
      : await verifyPassword(await decoyHash(), "x").then(() => false);
    // Admins have no choice of their own in the login form: any role choice lets them in.
    const roleOk = user && (user.role === body.role || user.role === "admin");
    if (!user || !passwordOk || !roleOk) {
      await limits.loginFailed(account, ip);
      // Only someone who knows the password learns the account's role: everyone else gets the same answer.
      if (user && passwordOk && (user.role === "patient" || user.role === "doctor")) {
        res.status(401).json({
          message: AUTH_MESSAGES.wrongRole[user.role],
          code: "wrong_role",
          role: user.role,
        } satisfies WrongRole);
        return;
      }
      throw new ApiError(401, AUTH_MESSAGES.loginFailed, "login_failed");
    }
    if (!user.otpVerified) {
      res.status(403).json({
        message: AUTH_MESSAGES.unverified,
        code: "unverified",
        userId: user.id,
        email: user.email,
      } satisfies Unverified);
      return;
    }
    await limits.loginSucceeded(account, ip);
    const token = await issueToken(db, user.id);
    res.json({ data: await sessionUser(db, user.id), token: { token } } satisfies LoggedIn);
  });

  router.post("/logout", signedIn, async (req, res) => {
    const header = req.get("authorization") ?? "";
    await revokeToken(db, header.slice(7).trim());
    res.status(204).end();
  });

  // No idempotency key here: a retried deletion meets a revoked token (401), which the web app
  // already treats as 'logged out', the same outcome as success.
  router.delete("/delete-account", signedIn, async (req, res) => {
    await deleteAccount(db, currentUser(req).id);
    res.json({ message: AUTH_MESSAGES.accountDeleted } satisfies Notice);
  });

  router.post("/forgot-password", async (req, res) => {
    if (byPhone(req.body)) {
      const { phone } = parse(phoneBody, req.body);
      await limits.perAddress(res, "forgotPassword", clientAddress(req));
      await mayText(req, res, phone);
      const user = await findResettableByPhone(db, phone);
      if (user) await codeSms(user, phone, "reset");
      res.json({ message: AUTH_MESSAGES.resetTexted } satisfies Notice);
      return;
    }
    const { email: address } = parse(emailBody, req.body);
    await limits.perAddress(res, "forgotPassword", clientAddress(req));
    if (await limits.mailSlot("reset", address)) {
      const user = await findActiveUserByEmail(db, address);
      if (user) await codeMail(user, "reset", 0);
    }
    res.json({ message: AUTH_MESSAGES.resetSent } satisfies Notice);
  });

  router.post("/reset-password", async (req, res) => {
    const body = byPhone(req.body) ? parse(phoneResetBody, req.body) : parse(resetBody, req.body);
    await limits.perAddress(res, "codeCheck", clientAddress(req));
    // Hashed before looking, so a known and an unknown account take the same time.
    const passwordHash = await hashPassword(body.password);
    const phone = "phone" in body ? body.phone : undefined;
    const user =
      "email" in body ? await findActiveUserByEmail(db, body.email) : await findResettableByPhone(db, body.phone);
    if (!user) throw codeError("invalid_code");
    const result = await db.transaction(async (tx) => {
      // A code by SMS is bound to the number it went to.
      const checked = await checkCode(tx, user.id, "reset", body.code, phone);
      if (checked.ok) {
        // The mailed code proves the address, so an unverified account is verified too (by SMS,
        // the account's number is verified already).
        await tx
          .update(users)
          .set({ passwordHash, otpVerified: true, updatedAt: new Date() })
          .where(eq(users.id, user.id));
        await revokeAllTokens(tx, user.id);
      }
      return checked;
    });
    if (!result.ok) throw codeError(result.reason);
    // Not inside the transaction: the counters are written through the database handle itself.
    await limits.forgetAccount("email" in body ? body.email : body.phone);
    res.json({ message: AUTH_MESSAGES.passwordReset } satisfies Notice);
  });

  // ---- doctor profile gate (docs/product.md, Accounts and codes) ----

  const sendProfileCode = async (userId: string) => {
    const [user] = await db
      .select({ id: users.id, email: sql<string>`${users.email}`, username: users.username, locale: users.locale })
      .from(users)
      // A doctor's (the profile gate's only users): doctors register with an address.
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (!(await codeMail(user, "profile", codeResendSeconds))) throw resendTooSoon();
  };

  const ownId = (req: Request) => {
    const me = currentUser(req);
    if (String(req.params.userId) !== me.id) throw forbidden();
    return me.id;
  };

  router.post("/generateProfileOtp", doctorOnly, async (req, res) => {
    const me = currentUser(req);
    const body = parse(emailBody, req.body);
    if (normalizeEmail(body.email) !== normalizeEmail(me.email ?? "")) throw forbidden();
    // The gate asks whenever it is shown, also after a wrong try: a live code is the one the doctor
    // holds, so it is kept whatever its age; only 'resend' replaces it.
    if (!(await hasLiveCode(db, me.id, "profile"))) await sendProfileCode(me.id);
    res.json({ message: AUTH_MESSAGES.profileOtpSent } satisfies Notice);
  });

  router.put("/resendProfileOtp/:userId", signedIn, async (req, res) => {
    await sendProfileCode(ownId(req));
    res.json({ message: AUTH_MESSAGES.profileOtpResent } satisfies Notice);
  });

  router.put("/verifyProfileOtp/:userId", signedIn, async (req, res) => {
    const id = ownId(req);
    const { otpCode: code } = parse(codeBody, req.body);
    await limits.perAddress(res, "codeCheck", clientAddress(req));
    const result = await checkCode(db, id, "profile", code);
    if (!result.ok) throw codeError(result.reason, AUTH_MESSAGES.profileInvalidCode);
    res.json({ message: AUTH_MESSAGES.profileVerified, user: await sessionUser(db, id) } satisfies ProfileVerified);
  });

  return router;
}
