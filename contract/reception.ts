// The wire of the front desk (docs/product.md, The front desk): the receptionist's patient records
// (/reception/patients), booking on a patient's behalf, the day sheet, arrivals and walk-ins
// (/reception/...), and the doctor's waiting queue (/doctor/queue). What the desk reads carries
// names, phones, times and states, never a reason, a diagnosis, a note or a prescription.
import { z } from "zod";
import {
  APPOINTMENT_STATUSES,
  APPOINTMENT_TYPES,
  DAY_STATES,
  DESK_SEARCH_MAX,
  LANGUAGES,
  SMS_CONSENT_METHODS,
  STORED_APPOINTMENT_TYPES,
} from "./constants.ts";
import { email, phoneNumber, username } from "./auth.ts";
import { apiError } from "./errors.ts";
import { calendarDate, coded, isCalendarDate, optionalId, uuid } from "./fields.ts";
import { normalizePhone } from "./phone.ts";

// ---- Requests ----

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);
const patientId = coded(uuid("A patient is required"), "invalid_patient");
const doctorId = coded(uuid("A doctor is required"), "doctor_required");
const appointmentType = coded(
  z.preprocess(blank, z.enum(APPOINTMENT_TYPES, "Invalid appointment type").default("in-person")),
  "invalid_type",
);

/**
 * POST /reception/patients: a record made at the desk with a name and a phone (read in Cameroon's
 * numbering unless it carries +country; stored E.164). The rest is optional. `smsConsent` records
 * that the patient agreed to text messages, and `smsConsentMethod` how they said so (in person
 * by default); the API records who (the receptionist) and when.
 */
export const deskPatientBody = z.object({
  username: username("Name"),
  phone: coded(phoneNumber("Phone is required", "Please enter a valid phone number"), "invalid_phone"),
  email: coded(z.preprocess(blank, email.optional()), "invalid_email"),
  dateOfBirth: coded(
    z.preprocess(
      blank,
      calendarDate("A valid date of birth is required")
        .refine((d) => d >= "1900-01-01", "A valid date of birth is required")
        .optional(),
    ),
    "invalid_date_of_birth",
  ),
  language: coded(z.preprocess(blank, z.enum(LANGUAGES, "Invalid language").default("fr")), "invalid_language"),
  smsConsent: coded(
    z.preprocess(
      (v) => (v === "on" || v === "true" ? true : v === "false" ? false : blank(v)),
      z.boolean().default(false),
    ),
    "invalid_consent",
  ),
  smsConsentMethod: coded(
    z.preprocess(blank, z.enum(SMS_CONSENT_METHODS, "Invalid consent method").default("in_person")),
    "invalid_consent",
  ),
});
export type DeskPatientRequest = z.input<typeof deskPatientBody>;

/**
 * GET /reception/patients: `phone` (the full number, however written) finds any patient; `q` (a
 * part of the name) only the patients of the doctors the receptionist serves and the desk's records.
 * One of the two is required.
 */
export const deskPatientSearchQuery = z
  .object({
    phone: z.preprocess(
      (v) => (typeof v === "string" ? v.trim() || undefined : blank(v)),
      z
        .string("Invalid phone")
        .max(30, "Please enter a valid phone number")
        .refine((v) => normalizePhone(v) !== null, "Please enter a valid phone number")
        .transform((v) => normalizePhone(v) ?? v)
        .optional(),
    ),
    q: z.preprocess(
      (v) => (typeof v === "string" ? v.trim().slice(0, 100) || undefined : blank(v)),
      z.string("Invalid search").min(2, "Type at least 2 letters of the name").optional(),
    ),
  })
  .refine((query) => query.phone !== undefined || query.q !== undefined, "A phone number or a name is required");
export type DeskPatientSearch = z.input<typeof deskPatientSearchQuery>;

/** A slot's date (YYYY-MM-DD) and time (HH:mm or ISO 8601 with its offset), as the patient's booking takes them. */
const slotDate = coded(calendarDate("A valid date is required"), "invalid_date");
const slotTime = coded(z.string("A time slot is required").min(1, "A time slot is required").max(40), "invalid_slot");

/** POST /reception/appointments: a booking on the patient's behalf, confirmed at once. */
export const deskBookingBody = z.object({
  patientId,
  doctorId,
  specialityId: coded(optionalId("speciality"), "invalid_speciality"),
  type: appointmentType,
  date: slotDate,
  time: slotTime,
});
export type DeskBooking = z.input<typeof deskBookingBody>;

/** PUT /reception/appointments/{id}: a new date and time (a reschedule)... */
export const deskRescheduleBody = z.object({ date: slotDate, time: slotTime });
/** ...or a status: cancelled for the patient, or missed once the start has passed. */
export const deskStatusBody = z.object({
  status: coded(z.enum(["cancelled", "missed"], "Only cancelled or missed is possible here"), "invalid_status"),
});
export type DeskChange = z.input<typeof deskRescheduleBody> | z.input<typeof deskStatusBody>;

/** GET /reception/day: the day sheet of `date` (YYYY-MM-DD), today in the clinic's zone when absent. */
export const daySheetQuery = z.object({
  date: coded(
    z.preprocess(
      blank,
      z.string("A valid date is required").refine(isCalendarDate, "A valid date is required").optional(),
    ),
    "invalid_date",
  ),
});

/** POST /reception/walk-ins: a patient who came without booking, seen today by a doctor the desk serves. */
export const walkInBody = z.object({ patientId, doctorId, type: appointmentType });
export type WalkIn = z.input<typeof walkInBody>;

// ---- Answers ----

const who = z.object({ id: z.string(), username: z.string() });

/**
 * A patient as the desk sees them, who they are and how to reach them: the answer of POST
 * /reception/patients (201) and GET /reception/patients/{id}.
 */
export const deskPatient = z.object({
  id: z.string(),
  username: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** YYYY-MM-DD */
  dateOfBirth: z.string().nullable(),
  language: z.enum(LANGUAGES),
  /** True when the patient has an online account (a password of their own), false for a desk record. */
  online: z.boolean(),
  /** Who recorded the consent to text messages, when and how; null without consent. */
  smsConsent: z.object({ at: z.string(), by: who.nullable(), method: z.enum(SMS_CONSENT_METHODS) }).nullable(),
  /** The receptionist who made the record at the desk; null for an account made online. */
  createdBy: who.nullable(),
  createdAt: z.string(),
  /**
   * True when nobody has claimed this desk record yet and 5 wrong dates of birth locked its claim
   * (docs/sms.md, Claiming a desk record): the desk checks the person's identity in person and
   * unlocks it (POST /reception/patients/{id}/claim-unlock).
   */
  claimLocked: z.boolean(),
});
export type DeskPatient = z.infer<typeof deskPatient>;

/** GET /reception/patients: at most 20, by name. */
export const deskPatientList = z.object({ patients: z.array(deskPatient).max(DESK_SEARCH_MAX) });
export type DeskPatientList = z.infer<typeof deskPatientList>;

/**
 * 409 of POST /reception/patients: the number is already a patient's (an identity phone, a desk
 * record, or an online account's contact phone); the desk books for one of them instead.
 */
export const phoneTaken = apiError.extend({ code: z.literal("phone_taken"), patients: z.array(who) });
export type PhoneTaken = z.infer<typeof phoneTaken>;

/**
 * One appointment of a day as the desk and the doctor's queue see it. `state` is the day's state in
 * FHIR's Appointment.status words (docs/product.md, The front desk).
 */
const dayAppointment = z.object({
  id: z.string(),
  /** YYYY-MM-DD in the clinic's zone. */
  date: z.string(),
  /** ISO 8601 with the clinic's offset: the slot, or for a walk-in the arrival. */
  time: z.string(),
  /** When the visit ends, the same way (a walk-in's: its arrival plus the doctor's visit length). */
  endTime: z.string(),
  type: z.enum(STORED_APPOINTMENT_TYPES),
  status: z.enum(APPOINTMENT_STATUSES),
  state: z.enum(DAY_STATES),
  walkIn: z.boolean(),
  arrivedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  Doctor: who,
  Patient: who.extend({ phone: z.string().nullable() }),
});
export type DayAppointment = z.infer<typeof dayAppointment>;

/**
 * GET /reception/day: the doctors the receptionist serves, by name (the day sheet has a section for
 * each, also on a day without appointments, and the walk-in form and 'Book with' offer them), and
 * every appointment of theirs that day, by time (cancelled ones included).
 */
export const daySheet = z.object({ date: z.string(), doctors: z.array(who), appointments: z.array(dayAppointment) });
export type DaySheet = z.infer<typeof daySheet>;

/**
 * GET /doctor/queue: today's arrived patients not yet called in, in the order they are due (a
 * booked patient at their slot time, a walk-in at their arrival), each with the minutes waited
 * since arrival.
 */
export const doctorQueue = z.object({
  queue: z.array(dayAppointment.extend({ dueAt: z.string(), waitedMinutes: z.number().int() })),
});
export type DoctorQueue = z.infer<typeof doctorQueue>;
