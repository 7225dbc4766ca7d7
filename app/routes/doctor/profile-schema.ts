// The doctor's profile form (PUT /doctor/me). A name is still needed.
import { z } from "../../zod.ts";

const optional = z.string().trim().optional().default("");

export const doctorProfileSchema = z.object({
  username: z.string({ error: "doctor:profile.usernameRequired" }).trim().min(3, "doctor:profile.usernameMin"),
  contact: optional,
  gender: z.enum(["male", "female"]).optional(),
  serial_number: optional,
  duty_hospital: optional,
  biography: optional,
  countryId: z.coerce.number().int().positive().optional(),
  cityId: z.coerce.number().int().positive().optional(),
});
