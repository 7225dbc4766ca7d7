// The registration forms' schemas (docs/product.md, Validation), shared by the action and the browser.
// They check a phone number's shape; the action then asks the server's phone library whether it is a
// number (register.tsx), so the numbering plans' metadata never goes to the browser (phone-shape.ts).
import { hasPhoneShape } from "../../phone-shape.ts";
import { z } from "../../zod.ts";
import { email, passwordPair, passwordsMatch, required } from "./schemas.ts";

/** A phone number as people write it (+237 670 000 001, 670000001, 6.70.00.00.01): its shape. */
const phoneNumber = (requiredKey: string, invalidKey: string) =>
  z.string(required(requiredKey)).trim().min(1, requiredKey).refine(hasPhoneShape, invalidKey);

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
