// The one place where an upstream failure becomes words: its status and stable `code` give a
// translation key. The API's own `message` is English for developers and logs, and never reaches the
// screen (docs/errors.md).
//
// A code means the same thing everywhere, but a few are said differently depending on what the user
// was doing (a taken slot when booking, when accepting a proposal, when a doctor reschedules): those
// name the screen's `action`. The caller's `fallback` says "that failed" in the screen's words for
// every code the table does not know.
import type { ErrorCode } from "../contract/errors.ts";

/** What the user was doing when the upstream refused. */
export type UpstreamAction =
  | "booking"
  | "openRequest"
  | "proposalAccept"
  | "proposalReject"
  | "patientAppointment"
  | "doctorAppointment"
  | "code"
  | "profileGate"
  | "login"
  | "profile"
  | "admin"
  | "availability"
  | "desk"
  | "page";

/** A refused upstream answer as the upstream client gives it (app/upstream.server.ts). */
export interface UpstreamFailure {
  status: number;
  code?: string;
  body?: Record<string, unknown>;
}

type Words = string | Partial<Record<UpstreamAction, string>>;

const KEYS: Partial<Record<ErrorCode, Words>> = {
  network: "common:errors.network",
  rate_limited: "common:errors.rateLimited",
  invalid_page: "common:errors.invalidPage",
  invalid_limit: "common:errors.invalidLimit",
  doctor_unverified: "doctor:errors.unverified",
  not_verified: "doctor:errors.unverified",
  not_found: {
    desk: "reception:manage.changedMeanwhile",
    doctorAppointment: "doctor:errors.notFound",
    patientAppointment: "patient:cancel.notFound",
    admin: "admin:errors.notFound",
  },
  already_decided: { admin: "admin:errors.alreadyDecided" },
  invalid_speciality: { admin: "admin:errors.invalidSpeciality" },
  slot_taken: {
    booking: "patient:book.slotTaken",
    proposalAccept: "patient:proposals.slotTaken",
    doctorAppointment: "doctor:reschedule.slotTaken",
    desk: "doctor:reschedule.slotTaken",
  },
  slot_held: { doctorAppointment: "doctor:appointments.slotHeld" },
  // A patient's booking limits (docs/product.md, Booking limits): booking, or accepting a proposal.
  booking_same_time: "patient:bookingLimits.sameTime",
  booking_limit_doctor: "patient:bookingLimits.perDoctor",
  booking_limit_total: "patient:bookingLimits.total",
  unchanged: { doctorAppointment: "doctor:reschedule.unchanged", desk: "doctor:reschedule.unchanged" },
  past_date: {
    desk: "doctor:reschedule.pastDate",
    doctorAppointment: "doctor:reschedule.pastDate",
    openRequest: "patient:request.pastTime",
    availability: "common:calendarDays.past",
  },
  invalid_slot: {
    desk: "doctor:reschedule.timeRequired",
    doctorAppointment: "doctor:reschedule.timeRequired",
    openRequest: "patient:request.timeRequired",
  },
  invalid_transition: {
    desk: "reception:manage.changedMeanwhile",
    doctorAppointment: "doctor:errors.changedMeanwhile",
    patientAppointment: "patient:cancel.changedMeanwhile",
    proposalAccept: "patient:proposals.changedMeanwhile",
    proposalReject: "patient:proposals.changedMeanwhile",
  },
  already_final: { doctorAppointment: "doctor:errors.changedMeanwhile", desk: "reception:manage.changedMeanwhile" },
  already_started: {
    desk: "reception:manage.alreadyStarted",
    doctorAppointment: "doctor:errors.alreadyStarted",
    patientAppointment: "patient:cancel.alreadyStarted",
  },
  not_started: { doctorAppointment: "doctor:errors.notStarted", desk: "reception:manage.notStarted" },
  already_proposed: { doctorAppointment: "doctor:errors.alreadyProposed" },
  request_expired: { doctorAppointment: "doctor:errors.requestExpired" },
  invalid_code: { code: "auth:verification.invalidCode", profileGate: "doctor:gate.invalidCode" },
  code_expired: { code: "auth:verification.expired", profileGate: "doctor:gate.expired" },
  too_many_attempts: {
    code: "auth:verification.tooMany",
    profileGate: "doctor:gate.tooMany",
    login: "auth:login.tooMany",
  },
  resend_too_soon: { code: "auth:verification.resendTooSoon", profileGate: "doctor:gate.resendTooSoon" },
  invalid_phone: { profile: "patient:profile.invalidPhone", code: "common:sms.errors.invalidPhone" },
  // Text messages (docs/sms.md).
  phone_missing: "common:sms.errors.phoneMissing",
  phone_unverified: "common:sms.errors.phoneUnverified",
  sms_unavailable: "common:sms.unavailable",
  // The availability rule's refusals (docs/product.md, Availability): the same words on every screen.
  day_not_worked: "common:availability.dayNotWorked",
  slot_not_offered: "common:availability.slotNotOffered",
  notice_too_short: "common:availability.noticeTooShort",
  beyond_horizon: "common:availability.beyondHorizon",
  clinic_closed: "common:availability.clinicClosed",
  doctor_absent: "common:availability.doctorAbsent",
  visit_overlap: "common:availability.visitOverlap",
  // The working plan's, the absences' and the closed days' own fields.
  invalid_week: { availability: "doctor:availability.dayRefused" },
  invalid_visit_minutes: { availability: "doctor:availability.visitRange" },
  invalid_notice: { availability: "doctor:availability.noticeRange" },
  invalid_horizon: { availability: "doctor:availability.horizonRange" },
  invalid_date: { availability: "common:calendarDays.dateInvalid" },
  invalid_period: { availability: "doctor:availability.periodInvalid" },
  invalid_reason: { availability: "common:calendarDays.reasonInvalid" },
  closure_exists: { availability: "admin:closures.exists" },
  too_many_absences: { availability: "doctor:availability.tooManyAbsences" },
  too_many_closures: { availability: "admin:closures.tooMany" },
  // The front desk's (docs/product.md, The front desk).
  doctor_not_served: "reception:book.notServed",
  phone_taken: "reception:patients.phoneTaken",
  not_today: "reception:manage.otherDay",
  not_arrived: "doctor:queue.notArrived",
  search_required: "reception:patients.searchShort",
  // Phone numbers as sign-in identities (docs/sms.md, Signing in with a phone).
  phone_country_unsupported: "auth:validation.phoneCountry",
  date_of_birth_required: "auth:verification.birthRequired",
  date_of_birth_mismatch: "auth:verification.birthMismatch",
  claim_locked: "auth:verification.claimLocked",
  // Adding an e-mail on the settings page: said only to whoever holds the code mailed to it.
  email_taken: { code: "common:settings.email.taken" },
};

/** The code a failure stands for: its own, or the status's when the answer carried none. */
function codeOf(failure: UpstreamFailure): string {
  if (failure.status === 404) return "not_found";
  if (failure.code) return failure.code;
  return failure.status === 429 ? "rate_limited" : failure.status >= 500 ? "network" : "";
}

/** The translation key of an upstream failure met while doing `action`; `fallback` when no better words exist. */
export function upstreamErrorKey(failure: UpstreamFailure, action: UpstreamAction, fallback: string): string {
  const code = codeOf(failure);
  // A sign-in refused for the other role names the role the account has (its page is one link away).
  if (code === "wrong_role" && action === "login") {
    const role = failure.body?.role;
    return role === "patient" || role === "doctor" || role === "receptionist"
      ? `auth:login.wrongRole.${role}`
      : fallback;
  }
  // A number another patient holds, met while verifying one's own (the desk's words name the patients).
  if (code === "phone_taken" && action === "code") return "auth:verification.phoneTaken";
  const words = Object.hasOwn(KEYS, code) ? KEYS[code as ErrorCode] : undefined;
  if (typeof words === "string") return words;
  return words?.[action] ?? fallback;
}
