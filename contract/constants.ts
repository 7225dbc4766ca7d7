// The wire's fixed lists and sizes, without zod: the browser's form schemas import them, and their
// chunk stays small (the schemas of contract/*.ts are for the servers).

/** Who an account is: a role decides the screens and what the API lets it do (docs/product.md, Roles and homes). */
export const ROLES = ["patient", "doctor", "admin", "receptionist"] as const;
export type Role = (typeof ROLES)[number];

/**
 * The name the API answers for an erased account (docs/product.md, Accounts and codes); the screens
 * say it in the reader's language.
 */
export const DELETED_USER = "Deleted user";

/**
 * The six hourly slots, wall-clock times in the clinic's zone (APP_TIMEZONE): every doctor's plan
 * until they change it, and the preferred times an open request offers.
 */
export const SLOTS = ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"] as const;
/** A visit's length in minutes (a doctor's working plan): the least, the most, and every doctor's until they change it. */
export const VISIT_MINUTES_MIN = 5;
export const VISIT_MINUTES_MAX = 120;
export const DEFAULT_VISIT_MINUTES = 60;
/** A plan's starts lie on this grid (minutes), and every visit between these clinic times. */
export const PLAN_GRID_MINUTES = 5;
export const PLAN_DAY_START = "06:00";
export const PLAN_DAY_END = "22:00";
/** The days of a working plan's week (contract/availability.ts), Monday first. */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** A working plan's bounds: at most a week's notice, two years ahead (anything more is a typing mistake). */
export const MAX_NOTICE_HOURS = 168;
export const MAX_HORIZON_DAYS = 730;
/** The longest absence one declaration covers (a longer leave is declared in parts). */
export const MAX_ABSENCE_DAYS = 366;
/** The longest reason an absence or a closed day keeps. */
export const CALENDAR_REASON_MAX = 200;
/** Cameroon's fixed public holidays, closed days from the start (migration 0010), named on screen in the page's language. */
export const FIXED_HOLIDAYS = [
  "new_year",
  "youth_day",
  "labour_day",
  "national_day",
  "assumption",
  "christmas",
] as const;

export const APPOINTMENT_STATUSES = ["pending", "proposed", "confirmed", "completed", "cancelled", "missed"] as const;
/** Statuses no one changes any more: the appointment took place, was called off, or the patient did not come. */
export const FINAL_STATUSES = [
  "completed",
  "cancelled",
  "missed",
] as const satisfies readonly (typeof APPOINTMENT_STATUSES)[number][];
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
/** What a patient books or requests. */
export const APPOINTMENT_TYPES = ["online", "in-person"] as const;
/**
 * Where an appointment stands on its day, in the words of FHIR's Appointment.status (docs/product.md,
 * The front desk): pending and booked (confirmed) until the desk records the arrival, arrived while
 * the patient waits, checked-in once the doctor calls them in, then fulfilled (completed), noshow
 * (missed) or cancelled.
 */
export const DAY_STATES = ["pending", "booked", "arrived", "checked-in", "fulfilled", "noshow", "cancelled"] as const;
export type DayState = (typeof DAY_STATES)[number];
/** How a patient agreed at the desk to receive text messages. */
export const SMS_CONSENT_METHODS = ["in_person", "by_phone"] as const;
/** The most doctors one receptionist serves, and the most patients a desk search answers. */
export const STAFF_DOCTORS_MAX = 50;
export const DESK_SEARCH_MAX = 20;
/** What an appointment may be: a doctor's recorded consultation too. */
export const STORED_APPOINTMENT_TYPES = [...APPOINTMENT_TYPES, "consultation"] as const;
export type StoredAppointmentType = (typeof STORED_APPOINTMENT_TYPES)[number];
export const APPOINTMENT_CATEGORIES = ["direct", "random"] as const;
export const PROPOSAL_STATUSES = ["pending", "accepted", "rejected"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

// The choices of an online appointment's details.
export const DEVICE_TYPES = ["computer", "tablet", "phone"] as const;
export const CONNECTION_QUALITIES = ["excellent", "good", "fair"] as const;
export const VIDEO_PLATFORMS = ["zoom", "teams", "meet", "webex", "any"] as const;

/** Page sizes of the lists: the default, and the most a client may ask for. */
export const PATIENT_PAGE_SIZE = 20;
export const PATIENT_PAGE_MAX = 100;
export const DOCTOR_LIST_PAGE_SIZE = 50;
export const DOCTOR_LIST_PAGE_MAX = 100;
export const PROPOSAL_PAGE_SIZE = 10;
export const PROPOSAL_PAGE_MAX = 50;

/** The kinds of a consultation record (the API validates them; the doctor's form offers them). */
export const CONSULTATION_TYPES = [
  "consultation",
  "follow-up",
  "check-up",
  "emergency",
  "online",
  "in-person",
] as const;
export type ConsultationType = (typeof CONSULTATION_TYPES)[number];
export const CONSULTATION_PAGE_SIZE = 20;
export const CONSULTATION_PAGE_MAX = 100;
/** The find-a-doctor search: 10 a page, at most 50. */
export const DOCTOR_PAGE_SIZE = 10;
export const DOCTOR_PAGE_MAX = 50;

/**
 * What the bell tells (contract/notification.ts). For the patient: what a doctor did. For the
 * doctor: what a patient did, and new open requests.
 */
export const NOTIFICATION_KINDS = [
  "proposal_received",
  "appointment_confirmed",
  "appointment_rescheduled",
  "appointment_cancelled",
  "appointment_booked",
  "open_request",
  "proposal_accepted",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Where a doctor's registration stands: the admin approves or rejects it (docs/product.md, Accounts and codes). */
export const DOCTOR_VERIFICATIONS = ["pending", "verified", "rejected"] as const;
export type DoctorVerification = (typeof DOCTOR_VERIFICATIONS)[number];
/** The admin's list of registrations: 20 a page, at most 100. */
export const ADMIN_DOCTOR_PAGE_SIZE = 20;
export const ADMIN_DOCTOR_PAGE_MAX = 100;
/** The longest name search of that list. */
export const ADMIN_DOCTOR_SEARCH_MAX = 100;
/** The admin's list of front desk staff: 10 a page (a first visit of the page stays under its budget), at most 100. */
export const STAFF_PAGE_SIZE = 10;
export const STAFF_PAGE_MAX = 100;

/** What a profile may say of its holder's gender (a doctor's form offers the first two only). */
export const GENDERS = ["male", "female", "other"] as const;

/** The languages of the screens and of the mail. */
export const LANGUAGES = ["en", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
