// Form schemas of the account screens (docs/product.md, Validation). Errors are translation keys; the same
// schema validates in the browser (conform) and in the route action. Registration's are in
// register-schema.ts: they alone need libphonenumber-js, which the other pages need not load.
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

export const loginSchema = z.object({
  email: email(),
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

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({ email: email(), code: codeSchema, ...passwordPair })
  .refine(...passwordsMatch);
