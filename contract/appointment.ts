// The wire of /appointment and /appointment-proposal (docs/product.md, The API and Data): what a
// client sends, validated by the API at its edge, and what the API answers, read by the web app's
// upstream client. Rules that need the clock or the database (a slot not yet started, a doctor who
// practises the speciality) stay with the API; this file says the shapes.
import { z } from "zod";
import {
  APPOINTMENT_CATEGORIES,
  APPOINTMENT_STATUSES,
  APPOINTMENT_TYPES,
  CONNECTION_QUALITIES,
  DEVICE_TYPES,
  DOCTOR_LIST_PAGE_MAX,
  DOCTOR_LIST_PAGE_SIZE,
  PATIENT_PAGE_MAX,
  PATIENT_PAGE_SIZE,
  PROPOSAL_PAGE_MAX,
  PROPOSAL_PAGE_SIZE,
  PROPOSAL_STATUSES,
  STORED_APPOINTMENT_TYPES,
  VIDEO_PLATFORMS,
} from "./constants.ts";
import { SLOT_REFUSALS } from "./availability.ts";
import { doctorSummary, person, specialityBadge } from "./doctor.ts";
import { country, place } from "./reference.ts";
import {
  calendarDate,
  coded,
  isCalendarDate,
  optionalChoice,
  optionalId,
  optionalSearch,
  optionalText,
  pageFields,
  pagination,
  requiredId,
  uuid,
} from "./fields.ts";

// ---- Requests ----

const appointmentType = coded(
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(APPOINTMENT_TYPES, {
      error: (issue) => (issue.input === undefined ? "Type is required" : "Invalid appointment type"),
    }),
  ),
  "invalid_type",
  "type_required",
);

/** Online details and the patient's reason; unknown keys are dropped. */
const appointmentDetails = z.object({
  deviceType: optionalChoice(DEVICE_TYPES, "device type"),
  internetQuality: optionalChoice(CONNECTION_QUALITIES, "connection quality"),
  videoPreference: optionalChoice(VIDEO_PLATFORMS, "video platform"),
  residenceAddress: optionalText(300, "residence address"),
  reason: optionalText(1000, "reason"),
});
export type AppointmentDetails = z.output<typeof appointmentDetails>;

const details = coded(
  z.preprocess((v) => (v === null ? undefined : v), appointmentDetails.optional()),
  "invalid_details",
);

/** A slot's date, and its time as HH:mm or as an ISO 8601 timestamp with its offset. */
const slotDate = coded(calendarDate("A valid date is required"), "invalid_date");
const slotTime = coded(
  z
    .string("A time slot is required")
    .min(1, "A time slot is required")
    .refine(
      (t) => !/^\d{2}:\d{2}$/.test(t) || (Number(t.slice(0, 2)) <= 23 && Number(t.slice(3)) <= 59),
      "A valid time is required",
    ),
  "invalid_slot",
);

const specialityId = coded(optionalId("speciality"), "invalid_speciality");

/**
 * POST /appointment, a direct booking with a verified doctor. The server decides the status
 * (pending), the fee and, in person, the place; a status or price sent is ignored.
 */
export const directBookingBody = z.object({
  category: z.literal("direct").optional(),
  type: appointmentType,
  doctorId: coded(uuid("A doctor is required"), "doctor_required"),
  date: slotDate,
  time: slotTime,
  details,
  specialityId,
});

/** POST /appointment with category "random": an open request, answered by doctors' proposals. */
export const openRequestBody = z.object({
  category: z.literal("random"),
  specialityId: coded(requiredId("speciality", "Speciality is required"), "invalid_speciality", "speciality_required"),
  type: appointmentType,
  date: slotDate,
  time: slotTime,
  details,
  city: coded(optionalId("city"), "invalid_city"),
  cityId: coded(optionalId("city"), "invalid_city"),
  country: coded(optionalId("country"), "invalid_country"),
  countryId: coded(optionalId("country"), "invalid_country"),
  /** In person: where, in the patient's words (at most 200 characters kept; anything but text is ignored). */
  place: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().slice(0, 200) || undefined : undefined),
    z.string().optional(),
  ),
});

export type DirectBooking = z.input<typeof directBookingBody>;
export type DirectBookingBody = z.output<typeof directBookingBody>;
export type OpenRequest = z.input<typeof openRequestBody>;
export type OpenRequestBody = z.output<typeof openRequestBody>;

/** PUT /appointment/{id} by its doctor: a new status (which ones it may reach is the API's rule, a 409)... */
export const doctorStatusBody = z.object({
  status: coded(z.enum(APPOINTMENT_STATUSES, "Invalid status"), "invalid_status"),
});

/** ...or a new date and time (a reschedule). */
const newSlot = "A new date and time are required";
export const rescheduleBody = z.object({
  date: coded(
    z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string({ error: (issue) => (issue.input === undefined ? newSlot : "A valid date is required") })
        .refine(isCalendarDate, "A valid date is required"),
    ),
    "invalid_date",
    "invalid_slot",
  ),
  time: coded(z.string(newSlot).min(1, newSlot), "invalid_slot"),
});
export type DoctorChange = z.input<typeof doctorStatusBody> | z.input<typeof rescheduleBody>;

/** PATCH /appointment/{id} by its patient: cancellation is the only change. */
export const patientChangeBody = z.object({
  status: coded(z.literal("cancelled", "Only cancellation is possible here"), "invalid_status"),
});
export type PatientChange = z.input<typeof patientChangeBody>;

/** GET /appointment/slots */
export const slotsQuery = z.object({
  doctorId: coded(uuid("A doctor is required"), "doctor_required"),
  date: coded(calendarDate("A valid date is required"), "invalid_date"),
});

const statusFilter = optionalChoice(APPOINTMENT_STATUSES, "status");

/** The filters both appointment lists take. */
const listFilters = {
  status: statusFilter,
  search: optionalSearch,
  city: optionalId("city"),
  country: optionalId("country"),
};

/** GET /appointment: the patient's list, with the 'Assigned to me' (true) and 'Open requests' (false) tabs. */
export const patientListQuery = z.object({
  type: optionalChoice(STORED_APPOINTMENT_TYPES, "type"),
  category: optionalChoice(APPOINTMENT_CATEGORIES, "category"),
  assigned: optionalChoice(["true", "false"], "assigned filter"),
  ...listFilters,
  ...pagination(PATIENT_PAGE_SIZE, PATIENT_PAGE_MAX),
});
export type PatientListQuery = z.output<typeof patientListQuery>;

/** GET /doctor/doctor_appointments: 'assigned to me' (direct) or 'open requests' (random). */
export const doctorListQuery = z.object({
  category: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(APPOINTMENT_CATEGORIES, "Invalid category").default("direct"),
  ),
  ...listFilters,
  ...pagination(DOCTOR_LIST_PAGE_SIZE, DOCTOR_LIST_PAGE_MAX),
});
export type DoctorListQuery = z.output<typeof doctorListQuery>;

/** POST /appointment-proposal: a doctor proposes themself for an open request. */
export const proposalBody = z.object({
  /** Only the doctor's own id, when given (anyone else's is a 403). */
  doctorId: z.string("You can only propose yourself").optional(),
  appointmentId: coded(
    z.string("An appointment is required").min(1, "An appointment is required"),
    "appointment_required",
  ),
});
export type ProposalRequest = z.input<typeof proposalBody>;

/** GET /appointment-proposal: the proposals on one of the patient's requests. */
export const proposalListQuery = z.object({
  appointmentId: coded(
    z.string("An appointment is required").min(1, "An appointment is required"),
    "appointment_required",
  ),
  ...pagination(PROPOSAL_PAGE_SIZE, PROPOSAL_PAGE_MAX),
});

// ---- Answers ----

/** One appointment as both sides read it. */
export const appointment = z.object({
  id: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  type: z.enum(STORED_APPOINTMENT_TYPES),
  category: z.enum(APPOINTMENT_CATEGORIES),
  /** YYYY-MM-DD in the clinic's zone. */
  date: z.string(),
  /** ISO 8601 with the clinic's offset that day, e.g. 2026-12-01T09:00:00+01:00. */
  time: z.string(),
  /** When the visit ends, the same way: its start plus the doctor's visit length when it was booked. */
  endTime: z.string(),
  place: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  price: z.number().nullable(),
  tag: z.string().nullable(),
  /** What the patient wrote: reason, online details, residence address. */
  details: appointmentDetails.partial(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  specialityId: z.number().int().nullable(),
  doctorId: z.string().nullable(),
  patientId: z.string(),
  Doctor: person
    .extend({
      contact: z.string().nullable(),
      duty_hospital: z.string().nullable(),
      specialities: z.array(specialityBadge.omit({ isGeneral: true })),
    })
    .nullable(),
  Patient: person.nullable(),
  Speciality: z.object({ id: z.number().int(), name: z.string(), nameFr: z.string(), icon: z.string() }).nullable(),
  City: place.nullable(),
  Country: country.nullable(),
});

/**
 * In the doctor's lists: the doctor's own proposal on an open request, whether the slot is already
 * theirs elsewhere, and how many of the patient's appointments (with any doctor) were marked missed
 * in the last 12 months: null unless the appointment is assigned to this doctor (an open request's
 * patient is not theirs).
 */
export const doctorAppointment = appointment.extend({
  myProposal: z.object({ id: z.string(), status: z.enum(PROPOSAL_STATUSES) }).nullable(),
  slotHeld: z.boolean(),
  patientMissed: z.number().int().nullable(),
});
export type DoctorAppointment = z.infer<typeof doctorAppointment>;

/** In the patient's lists: how many proposals wait on an open request. */
export const patientAppointment = appointment.extend({ proposalCount: z.number().int() });
export type PatientAppointment = z.infer<typeof patientAppointment>;

export const doctorAppointmentPage = z.object({ appointments: z.array(doctorAppointment), ...pageFields });
export type DoctorAppointmentPage = z.infer<typeof doctorAppointmentPage>;
export const patientAppointmentPage = z.object({ appointments: z.array(patientAppointment), ...pageFields });
export type PatientAppointmentPage = z.infer<typeof patientAppointmentPage>;

/**
 * GET /appointment/slots: the start times of the doctor's plan that day (HH:MM, and `end` when the
 * visit ends), each free or not; `reason` says why one is not (the availability rule's code, the one
 * booking it would answer), null when it is free. A day the doctor does not work has none.
 */
export const daySlots = z.array(
  z.object({
    time: z.string(),
    end: z.string(),
    iso: z.string(),
    available: z.boolean(),
    reason: z.enum(SLOT_REFUSALS).nullable(),
  }),
);
export type DaySlot = z.infer<typeof daySlots>[number];

/** PATCH /appointment/{id} and PATCH /appointment-proposal/{id}/accept. */
export const changedAppointment = z.object({ message: z.string(), appointment });
export const rejectedProposal = z.object({ message: z.string() });

/** POST /appointment-proposal */
export const createdProposal = z.object({
  id: z.string(),
  status: z.enum(PROPOSAL_STATUSES),
  createdAt: z.string(),
  appointmentId: z.string(),
  doctorId: z.string(),
});

/** GET /appointment-proposal: one page, the total in the X-Total-Count header. */
export const proposalList = z.array(
  z.object({
    id: z.string(),
    status: z.enum(PROPOSAL_STATUSES),
    /** False once the doctor holds this slot with another appointment: accepting would be refused. */
    available: z.boolean(),
    createdAt: z.string(),
    Doctor: doctorSummary,
    Appointment: z.object({ id: z.string(), price: z.number().nullable() }),
  }),
);
export type Proposal = z.infer<typeof proposalList>[number];
