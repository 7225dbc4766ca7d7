// The consultation form: prescription is a textarea with one item per line, sent as string[].
import { z } from "../../zod.ts";
import { CONSULTATION_TYPES } from "../../../contract/constants.ts";

export const consultationSchema = z.object({
  patientId: z.string({ error: "doctor:consultations.patientRequired" }).min(1, "doctor:consultations.patientRequired"),
  type: z.enum(CONSULTATION_TYPES, { error: "doctor:consultations.typeRequired" }),
  diagnosis: z
    .string({ error: "doctor:consultations.diagnosisRequired" })
    .trim()
    .min(1, "doctor:consultations.diagnosisRequired"),
  notes: z.string().trim().optional().default(""),
  prescription: z
    .string()
    .optional()
    .default("")
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
});
