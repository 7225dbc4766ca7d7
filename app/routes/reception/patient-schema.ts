// The desk's new patient form (docs/product.md, The front desk), shared by the action and the
// browser (conform): a name and a phone, the rest optional. In the browser the schema checks the
// phone's shape; the action gives it the server's check, which also asks Cameroon's numbering (or
// +country's), so the numbering plans' metadata never goes to the browser (app/phone.server.ts).
// Errors are translation keys.
import { hasPhoneShape, type PhoneCheck } from "../../phone-shape.ts";
import { z } from "../../zod.ts";
import { LANGUAGES } from "../../../contract/constants.ts";

const blank = (v: unknown) => (v === "" ? undefined : v);

/** The form's schema; `isNumber` checks the phone (its shape by default, the browser's check). */
export function patientSchema(today: string, isNumber: PhoneCheck = hasPhoneShape) {
  return z.object({
    username: z
      .string({ error: "reception:patients.validation.nameRequired" })
      .trim()
      .min(3, "reception:patients.validation.nameMin")
      .max(50, "reception:patients.validation.nameMax"),
    phone: z
      .string({ error: "reception:patients.validation.phoneRequired" })
      .trim()
      .refine(isNumber, "reception:patients.validation.phoneInvalid"),
    email: z.preprocess(blank, z.email("reception:patients.validation.emailInvalid").optional()),
    dateOfBirth: z.preprocess(
      blank,
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "reception:patients.validation.dateInvalid")
        .refine((d) => d >= "1900-01-01" && d <= today, "reception:patients.validation.dateInvalid")
        .optional(),
    ),
    language: z.enum(LANGUAGES).default("fr"),
    // A checkbox sends "on" when ticked, nothing otherwise.
    smsConsent: z.preprocess((v) => v === "on", z.boolean()),
  });
}
