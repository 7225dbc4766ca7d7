// The registration forms' schemas (docs/product.md, Validation), one for the action and the browser.
// The browser checks a phone number's shape (the default check); the action passes the server's
// check, which also asks the numbering plans, so their metadata never goes to the browser.
import { hasPhoneShape, type PhoneCheck } from "../../phone-shape.ts";
import { z } from "../../zod.ts";
import { email, passwordPair, passwordsMatch, required } from "./schemas.ts";

/** A phone number as people write it (+237 670 000 001, 670000001, 6.70.00.00.01). */
const phoneNumber = (requiredKey: string, invalidKey: string, isNumber: PhoneCheck) =>
  z.string(required(requiredKey)).trim().min(1, requiredKey).refine(isNumber, invalidKey);

/** The patient's registration schema; `isNumber` checks the phone number. */
export const patientRegisterSchema = (isNumber: PhoneCheck = hasPhoneShape) =>
  z
    .object({
      ...passwordPair,
      role: z.literal("patient"),
      username: z.string(required("auth:validation.usernameRequired")).trim().min(3, "auth:validation.usernameMin"),
      // Optional: without it the code comes by SMS and the phone signs in (docs/sms.md).
      email: email().optional(),
      phone: phoneNumber("auth:validation.phoneRequired", "auth:validation.phoneInvalid", isNumber),
    })
    .refine(...passwordsMatch);

/** The doctor's registration schema; `isNumber` checks the contact number. */
export const doctorRegisterSchema = (isNumber: PhoneCheck = hasPhoneShape) =>
  z
    .object({
      ...passwordPair,
      role: z.literal("doctor"),
      serial_number: z.string(required("auth:validation.serialRequired")).trim().min(3, "auth:validation.serialMin"),
      username: z.string(required("auth:validation.doctorNameRequired")).trim().min(3, "auth:validation.doctorNameMin"),
      email: email(),
      contact: phoneNumber("auth:validation.contactRequired", "auth:validation.contactFormat", isNumber),
    })
    .refine(...passwordsMatch);
