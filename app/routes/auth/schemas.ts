// Form schemas of the account screens (docs/product.md, Validation). Errors are translation keys; the same
// schema validates in the browser (conform) and in the route action. Registration's are in
// register-schema.ts, loaded by its page alone.
import { z } from "../../zod.ts";

export const required = (key: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? key : undefined),
});

export const email = () =>
  z.email({
    error: (issue) => (issue.input === undefined ? "auth:validation.emailRequired" : "auth:validation.emailInvalid"),
  });

const roleChoice = z.enum(["patient", "doctor", "receptionist"], {
  error: (issue) => (issue.input === undefined ? "auth:validation.roleRequired" : "auth:validation.roleInvalid"),
});

/**
 * The login, forgot and reset forms' one field "E-mail or phone number" (a plain text input, so a
 * browser without JavaScript takes both): with an @ it must be an address, else it must look like a
 * number, which the API reads and checks (docs/sms.md, Signing in with a phone).
 */
const identifier = () =>
  z
    .string(required("auth:validation.identifierRequired"))
    .trim()
    .min(1, "auth:validation.identifierRequired")
    .refine((v) => !v.includes("@") || z.email().safeParse(v).success, "auth:validation.emailInvalid")
    .refine((v) => v.includes("@") || /^\+?[\d\s().-]{6,25}$/.test(v), "auth:validation.identifierInvalid");

/** The body part the API reads: an address, or a number. */
export const identity = (value: string): { email: string } | { phone: string } =>
  value.includes("@") ? { email: value } : { phone: value };

export const loginSchema = z.object({
  identifier: identifier(),
  password: z.string(required("auth:validation.passwordRequired")),
  role: roleChoice,
  redirectTo: z.string().optional(),
});

const password = z.string(required("auth:validation.passwordRequired")).min(6, "auth:validation.passwordMin");

export const passwordPair = { password, confirmPassword: z.string(required("auth:validation.confirmRequired")) };
export const passwordsMatch: [
  (v: { password: string; confirmPassword: string }) => boolean,
  { message: string; path: string[] },
] = [
  (v) => v.password === v.confirmPassword,
  { message: "auth:validation.passwordsMustMatch", path: ["confirmPassword"] },
];

export const codeSchema = z.string().regex(/^\d{6}$/, "auth:validation.codeIncomplete");

export const forgotPasswordSchema = z.object({ identifier: identifier() });

export const resetPasswordSchema = z
  .object({ identifier: identifier(), code: codeSchema, ...passwordPair })
  .refine(...passwordsMatch);
