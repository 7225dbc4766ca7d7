// The wire of /consultation: a doctor's records about their own patients (docs/product.md).
// A refused field answers invalid_<field> (invalid_diagnosis, invalid_type...).
import { z } from "zod";
import { CONSULTATION_PAGE_MAX, CONSULTATION_PAGE_SIZE, CONSULTATION_TYPES } from "./constants.ts";
import { coded, optionalSearch, pageFields, pagination, uuid } from "./fields.ts";

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

const fields = {
  patientId: coded(uuid("A patient is required"), "invalid_patient"),
  type: coded(
    z.enum(CONSULTATION_TYPES, `The consultation type must be one of ${CONSULTATION_TYPES.join(", ")}`),
    "invalid_type",
  ),
  diagnosis: coded(
    z.preprocess(
      trimmed,
      z
        .string("A diagnosis is required")
        .min(1, "A diagnosis is required")
        .max(500, "The diagnosis must be at most 500 characters"),
    ),
    "invalid_diagnosis",
  ),
  notes: z.preprocess(
    (v) => (v === null ? "" : trimmed(v)),
    z.string("The notes must be text").max(5000, "The notes must be at most 5000 characters"),
  ),
  prescription: z
    .array(
      z.string("Each prescription item must be text").max(500, "Each prescription item must be at most 500 characters"),
      "The prescription must be a list",
    )
    .max(50, "At most 50 prescription items")
    .transform((items) => items.map((i) => i.trim()).filter(Boolean)),
  // Absent or blank: now (on creation) or unchanged (on update).
  consultedAt: coded(
    z
      .preprocess(
        (v) => (v === "" || v === null ? undefined : v),
        z.iso.datetime({ offset: true, error: "Invalid consultation date" }).optional(),
      )
      .transform((v) => (v === undefined ? undefined : new Date(v)))
      .refine(
        (d) => d === undefined || d.getTime() <= Date.now() + 60_000,
        "The consultation date cannot be in the future",
      ),
    "invalid_consultedAt",
  ),
  appointmentId: z.preprocess((v) => (v === "" ? null : v), uuid("Invalid appointment").nullable()),
};

/** POST /consultation */
export const consultationCreateBody = z.object({
  ...fields,
  notes: coded(fields.notes.default(""), "invalid_notes"),
  prescription: coded(fields.prescription.default([]), "invalid_prescription"),
  appointmentId: coded(fields.appointmentId.optional(), "invalid_appointment"),
});
export type ConsultationCreate = z.input<typeof consultationCreateBody>;

/** PUT /consultation/{id}: the fields given change, the others stay. */
export const consultationUpdateBody = z.object({
  patientId: coded(fields.patientId.optional(), "invalid_patient"),
  type: coded(fields.type.optional(), "invalid_type"),
  diagnosis: coded(fields.diagnosis.optional(), "invalid_diagnosis"),
  notes: coded(fields.notes.optional(), "invalid_notes"),
  prescription: coded(fields.prescription.optional(), "invalid_prescription"),
  consultedAt: fields.consultedAt,
  appointmentId: coded(fields.appointmentId.optional(), "invalid_appointment"),
});
export type ConsultationUpdate = z.input<typeof consultationUpdateBody>;

/** GET /consultation */
export const consultationListQuery = z.object({
  search: optionalSearch,
  ...pagination(CONSULTATION_PAGE_SIZE, CONSULTATION_PAGE_MAX),
});

/** A record as the doctor's data download holds it: what the doctor wrote. */
export const consultationRecord = z.object({
  id: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  patientAvatar: z.string().nullable(),
  doctorId: z.string(),
  doctorName: z.string(),
  appointmentId: z.string().nullable(),
  /** YYYY-MM-DD and HH:mm in the clinic's zone. */
  date: z.string(),
  time: z.string(),
  consultedAt: z.string(),
  type: z.enum(CONSULTATION_TYPES),
  diagnosis: z.string(),
  notes: z.string(),
  prescription: z.array(z.string()),
  status: z.literal("completed"),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
});
export type ConsultationRecord = z.infer<typeof consultationRecord>;

/**
 * One record as its author and its patient read it, with how many of the patient's appointments,
 * with any doctor, were marked missed in the last 12 months.
 */
export const consultation = consultationRecord.extend({ patientMissed: z.number().int() });
export type Consultation = z.infer<typeof consultation>;

export const consultationPage = z.object({ consultations: z.array(consultation), ...pageFields });
export type ConsultationPage = z.infer<typeof consultationPage>;
