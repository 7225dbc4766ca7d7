// The registration forms' schemas (docs/product.md, Validation), apart from the other account
// screens' (schemas.ts) because their phone rule brings libphonenumber-js to the page.
import { isValidPhoneNumber } from "libphonenumber-js";
import { z } from "../../zod.ts";
import { email, passwordPair, passwordsMatch, required } from "./schemas.ts";

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
    // Optional: without it the code comes by SMS and the phone signs in (docs/sms.md).
    email: email().optional(),
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
