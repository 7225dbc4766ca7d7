// Form schemas of the account screens (docs/product.md, Validation). Errors are translation keys; the same
// schema validates in the browser (conform) and in the route action.
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "zod";

const required = (key: string) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined ? key : undefined) });

export const email = () =>
  z.email({ error: (issue) => (issue.input === undefined ? "auth:validation.emailRequired" : "auth:validation.emailInvalid") });

export const roleChoice = z.enum(["patient", "doctor"], {
  error: (issue) => (issue.input === undefined ? "auth:validation.roleRequired" : "auth:validation.roleInvalid"),
});

export const loginSchema = z.object({
  email: email(),
  password: z.string(required("auth:validation.passwordRequired")),
  role: roleChoice,
  redirectTo: z.string().optional(),
});

const password = z.string(required("auth:validation.passwordRequired")).min(6, "auth:validation.passwordMin");

const passwordPair = { password, confirmPassword: z.string(required("auth:validation.confirmRequired")) };
const passwordsMatch: [(v: { password: string; confirmPassword: string }) => boolean, { message: string; path: string[] }] = [
  (v) => v.password === v.confirmPassword,
  { message: "auth:validation.passwordsMustMatch", path: ["confirmPassword"] },
];

/**
 * A phone number as people write it (+237 670 000 001, 670000001, 6.70.00.00.01), read in Cameroon's
 * numbering unless it carries +country: the same rule as the API, which stores it in E.164.
 */
const phoneNumber = (requiredKey: string, invalidKey: string) =>
  z
    .string(required(requiredKey))
    .trim()
    .min(1, requiredKey)
    .refine((v) => isValidPhoneNumber(v, "CM"), invalidKey);

export const patientRegisterSchema = z
  .object({
    ...passwordPair,
  role: z.literal("patient"),
  username: z.string(required("auth:validation.usernameRequired")).trim().min(3, "auth:validation.usernameMin"),
  email: email(),
  phone: phoneNumber("auth:validation.phoneRequired", "auth:validation.phoneInvalid"),
  })
  .refine(...passwordsMatch);

export const doctorRegisterSchema = z
  .object({
    ...passwordPair,
  role: z.literal("doctor"),
  serial_number: z.string(required("auth:validation.serialRequired")).trim().min(3, "auth:validation.serialMin"),
  username: z.string(required("auth:validation.doctorNameRequired")).trim().min(3, "auth:validation.doctorNameMin"),
  email: email(),
  contact: phoneNumber("auth:validation.contactRequired", "auth:validation.contactFormat"),
  })
  .refine(...passwordsMatch);

export const codeSchema = z.string().regex(/^\d{6}$/, "auth:validation.codeIncomplete");

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({ email: email(), code: codeSchema, ...passwordPair })
  .refine(...passwordsMatch);
