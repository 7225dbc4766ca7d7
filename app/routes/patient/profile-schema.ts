// The patient's profile form (PUT /patient/me). The API still needs a
// username of 3 characters or more, so the browser says so first.
import { z } from "../../zod.ts";

const optional = z.string().trim().optional().default("");

export const patientProfileSchema = z.object({
  username: z.string({ error: "patient:profile.usernameRequired" }).trim().min(3, "patient:profile.usernameMin"),
  phone: optional,
  gender: z.enum(["male", "female"]).optional(),
  profession: optional,
  address: optional,
  countryId: z.coerce.number().int().positive().optional(),
  cityId: z.coerce.number().int().positive().optional(),
});
