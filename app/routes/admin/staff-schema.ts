// The admin's new receptionist form (docs/product.md, The front desk), shared by the action and the
// browser (conform). Errors are translation keys.
import { z } from "../../zod.ts";

export const staffSchema = z.object({
  username: z
    .string({ error: "admin:staff.validation.nameRequired" })
    .trim()
    .min(3, "admin:staff.validation.nameMin")
    .max(100, "admin:staff.validation.nameMax"),
  email: z.email({
    error: (issue) =>
      issue.input === undefined ? "admin:staff.validation.emailRequired" : "admin:staff.validation.emailInvalid",
  }),
  // Checkboxes: none checked sends nothing.
  doctorIds: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()).max(50)),
});
