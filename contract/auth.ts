// The wire of /auth (docs/product.md, The API and Accounts and codes): registration, the e-mail
// codes, login and logout, password reset, the doctor profile gate and account deletion. A refused
// field answers invalid_<field> (invalid_email, invalid_phone...); a malformed code invalid_code.
import { z } from "zod";
import { GENDERS, LANGUAGES, ROLES } from "./constants.ts";
import { calendarDate, coded } from "./fields.ts";
import { normalizePhone } from "./phone.ts";
import { country, place } from "./reference.ts";

// ---- Requests ----

const text = (required: string) => z.string({ error: required }).trim().min(1, required);
export const email = coded(
  z
    .string({ error: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .max(254, "Please enter a valid email")
    .pipe(z.email("Please enter a valid email")),
  "invalid_email",
);
const password = coded(
  z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .min(6, "Password must be at least 6 characters")
    .max(200, "Password must be at most 200 characters"),
  "invalid_password",
);
export const username = (label: string) =>
  coded(
    text(`${label} is required`).pipe(
      z.string().min(3, `${label} must be at least 3 characters`).max(50, `${label} must be at most 50 characters`),
    ),
    "invalid_username",
  );
/** A phone number as people write it, read in Cameroon's numbering unless it carries +country; given in E.164. */
export const phoneNumber = (required: string, invalid: string) =>
  text(required)
    .pipe(
      z
        .string()
        .max(30, invalid)
        .refine((v) => normalizePhone(v) !== null, invalid),
    )
    .transform((v) => normalizePhone(v) ?? v);
const CODE_MALFORMED = "Please enter the complete 6-digit code";
const otpCode = coded(
  z
    .string({ error: CODE_MALFORMED })
    .trim()
    .regex(/^\d{6}$/, CODE_MALFORMED),
  "invalid_code",
);
/** A phone that signs in, or that an account's codes go to (`invalid_phone`). */
const identityPhone = coded(phoneNumber("Phone is required", "Please enter a valid phone number"), "invalid_phone");
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);
/** The mail's language; anything else is ignored (the request's Accept-Language decides). */
const locale = z.enum(LANGUAGES).optional().catch(undefined);

/** POST /auth/register: which form the body is, read before the form itself. */
export const registrationRole = z.object({
  userRole: coded(z.enum(["patient", "doctor"], "Invalid role provided"), "invalid_role"),
});

/**
 * A patient signs up with a phone and, if they have one, an e-mail: without it the code goes by SMS
 * and the phone is their sign-in identity (docs/sms.md, Signing in with a phone).
 */
export const patientRegistrationBody = z.object({
  userRole: z.literal("patient"),
  username: username("Username"),
  email: coded(z.preprocess(blank, email.optional()), "invalid_email"),
  phone: identityPhone,
  password,
  locale,
});
export const doctorRegistrationBody = z.object({
  userRole: z.literal("doctor"),
  username: username("Doctor name"),
  email,
  contact: coded(phoneNumber("Contact is required", "Invalid contact format"), "invalid_contact"),
  password,
  serial_number: coded(
    text("Serial number is required").pipe(
      z
        .string()
        .min(3, "Serial number must be at least 3 characters")
        .max(50, "Serial number must be at most 50 characters"),
    ),
    "invalid_serial_number",
  ),
  locale,
});
export type Registration = z.input<typeof patientRegistrationBody> | z.input<typeof doctorRegistrationBody>;
export type RegistrationBody = z.output<typeof patientRegistrationBody> | z.output<typeof doctorRegistrationBody>;

/**
 * POST /auth/login, with `email` or with `phone` (a verified one, however written). A password too
 * long to be anyone's is said as a failed login.
 */
const loginBase = z.object({
  password: coded(
    z.string({ error: "Password is required" }).min(1, "Password is required").max(200, "Login failed"),
    "invalid_password",
  ),
  role: coded(
    z.enum(ROLES, { error: (i) => (i.input === undefined ? "Role is required" : "Invalid role selected") }),
    "invalid_role",
  ),
});
export const loginBody = loginBase.extend({ email });
export const phoneLoginBody = loginBase.extend({ phone: identityPhone });
export type LoginRequest = z.input<typeof loginBody> | z.input<typeof phoneLoginBody>;

/** Whether a body of the routes that take an e-mail or a phone names the phone (and no e-mail). */
export const byPhone = (body: unknown): boolean =>
  typeof body === "object" && body !== null && "phone" in body && !("email" in body);

/** POST /auth/resendVerification, /auth/forgot-password and /auth/generateProfileOtp. */
export const emailBody = z.object({ email });
export type EmailRequest = z.input<typeof emailBody>;
/** POST /auth/resendVerification and /auth/forgot-password by phone: the code goes by SMS. */
export const phoneBody = z.object({ phone: identityPhone });
export type PhoneRequest = z.input<typeof phoneBody>;
/** PUT /auth/verifyProfileOtp/{userId}. */
export const codeBody = z.object({ otpCode });
export type CodeRequest = z.input<typeof codeBody>;
/**
 * PUT /auth/verifyUser/{id}. Signing up with the phone of a record the front desk made claims it;
 * where the desk recorded a date of birth, the claimant gives it too (`dateOfBirth`, YYYY-MM-DD).
 */
export const verifyBody = codeBody.extend({
  dateOfBirth: coded(
    z.preprocess(blank, calendarDate("A valid date of birth is required").optional()),
    "invalid_date_of_birth",
  ),
});
export type VerifyRequest = z.input<typeof verifyBody>;
/** POST /auth/reset-password, with the e-mail or the phone the code went to. */
export const resetBody = z.object({ email, code: otpCode, password });
export const phoneResetBody = z.object({ phone: identityPhone, code: otpCode, password });
export type PasswordReset = z.input<typeof resetBody> | z.input<typeof phoneResetBody>;

// ---- Answers ----

/**
 * POST /auth/register: alike whether the address or phone was free or taken (no enumeration).
 * `phone` (E.164) is set when the code went by SMS, `email` when it went by mail.
 */
export const registered = z.object({ id: z.string(), email: z.string().nullable(), phone: z.string().nullable() });
export type Registered = z.infer<typeof registered>;

/** The signed-in user: the answer of PUT /auth/verifyUser/{id}, and login's `data`. Codes are never sent. */
export const sessionUser = z.object({
  id: z.string(),
  username: z.string(),
  /** Null for a patient who signs in with their phone only. */
  email: z.string().nullable(),
  /** YYYY-MM-DD */
  dateOfBirth: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  otpCode: z.null(),
  otpVerified: z.boolean(),
  userRole: z.enum(ROLES),
  avatarUrl: z.string().nullable(),
  resetCode: z.null(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  Country: country.nullable(),
  City: place.nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;

/** POST /auth/login */
export const loggedIn = z.object({ data: sessionUser, token: z.object({ token: z.string() }) });
export type LoggedIn = z.infer<typeof loggedIn>;

/**
 * Login's refusals that say more than {message, code}: the right password with the other role's
 * choice names the account's role (401 wrong_role), and an unverified account its id, for the
 * verification page (403 unverified).
 */
export const wrongRole = z.object({
  message: z.string(),
  code: z.literal("wrong_role"),
  role: z.enum(["patient", "doctor"]),
});
export type WrongRole = z.infer<typeof wrongRole>;
export const unverified = z.object({
  message: z.string(),
  code: z.literal("unverified"),
  userId: z.string(),
  email: z.string().nullable(),
});
export type Unverified = z.infer<typeof unverified>;

/** What the other routes answer: resend, forgot and reset password, the profile codes, deletion. */
export const notice = z.object({ message: z.string() });
export type Notice = z.infer<typeof notice>;

/** PUT /auth/verifyProfileOtp/{userId} */
export const profileVerified = notice.extend({ user: sessionUser });
export type ProfileVerified = z.infer<typeof profileVerified>;
