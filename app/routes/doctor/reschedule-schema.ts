// The reschedule form (docs/product.md, Validation): a date not before today, a start of the doctor's plan, and a
// change from the current values. Shared by the action and the browser (conform).
import { z } from "../../zod.ts";
import { isStartTime } from "../../start-time.ts";

export function rescheduleSchema(today: string) {
  return z
    .object({
      date: z
        .string({ error: "doctor:reschedule.dateRequired" })
        .regex(/^\d{4}-\d{2}-\d{2}$/, "doctor:reschedule.dateRequired")
        .refine((d) => d >= today, "doctor:reschedule.pastDate"),
      time: z.string({ error: "doctor:reschedule.timeRequired" }).refine(isStartTime, "doctor:reschedule.timeRequired"),
      currentDate: z.string(),
      currentTime: z.string(),
    })
    .refine((v) => v.date !== v.currentDate || v.time !== v.currentTime, {
      message: "doctor:reschedule.unchanged",
      path: ["time"],
    });
}
