// The API's error answers: every refusal is `{message, code}` with a status (docs/errors.md). The
// code is what the web app translates (app/upstream-errors.ts); the message is English for
// developers and logs, never shown to users.
import { z } from "zod";

/** Every code the API answers with, and the web tier's own "network" for an unreachable API. */
const ERROR_CODES = [
  // Requests the API cannot read (api/http.ts) and generic refusals.
  "invalid",
  "invalid_request",
  "too_large",
  "unsupported_media_type",
  "idempotency_key_reused",
  "unauthorized",
  "forbidden",
  "not_found",
  "rate_limited",
  "internal",
  "network",
  // Lists: a page number or a page size that is not a whole number from 1 (contract/fields.ts).
  "invalid_page",
  "invalid_limit",
  // Accounts and codes.
  "email_taken",
  "invalid_email",
  "invalid_password",
  "invalid_username",
  "invalid_role",
  "invalid_contact",
  "invalid_phone",
  "invalid_address",
  "invalid_profession",
  "login_failed",
  "wrong_role",
  "unverified",
  "not_verified",
  "invalid_code",
  "code_expired",
  "too_many_attempts",
  "resend_too_soon",
  "refused",
  // Text messages (docs/sms.md): no phone on the profile, a phone not verified yet, no SMS here.
  "phone_missing",
  "phone_unverified",
  "sms_unavailable",
  // Places and specialities.
  "invalid_country",
  "invalid_city",
  "city_country_mismatch",
  "invalid_speciality",
  "speciality_required",
  // Appointments, slots and proposals.
  "doctor_required",
  "doctor_not_found",
  "doctor_unverified",
  "doctor_unavailable",
  "appointment_required",
  "invalid_appointment",
  "type_required",
  "invalid_type",
  "invalid_details",
  "invalid_date",
  "invalid_slot",
  "past_date",
  "slot_taken",
  "slot_held",
  // The patient's booking limits (docs/product.md, Booking limits).
  "booking_same_time",
  "booking_limit_doctor",
  "booking_limit_total",
  "unchanged",
  "invalid_status",
  "invalid_transition",
  "already_final",
  "already_started",
  "not_started",
  "already_proposed",
  "already_decided",
  "request_expired",
  "not_your_patient",
  "invalid_reason",
  // The clinic's calendar (contract/availability.ts): the availability rule's refusals of a slot,
  // a working plan's fields, absences and closed days.
  "clinic_closed",
  "doctor_absent",
  "day_not_worked",
  "slot_not_offered",
  "notice_too_short",
  "beyond_horizon",
  "visit_overlap",
  "invalid_week",
  "invalid_visit_minutes",
  "invalid_notice",
  "invalid_horizon",
  "invalid_period",
  "appointments_in_period",
  "closure_exists",
  "too_many_absences",
  "too_many_closures",
  // Profiles: invalid_<field>.
  "invalid_gender",
  "invalid_serial_number",
  "invalid_duty_hospital",
  "invalid_biography",
  // Consultation records: invalid_<field>.
  "invalid_patient",
  "invalid_diagnosis",
  "invalid_notes",
  "invalid_prescription",
  "invalid_consultedAt",
  // The front desk (contract/reception.ts, contract/admin.ts): a doctor the receptionist does not
  // serve (403), a phone already a patient's (409 with the patients), a search without a phone or
  // a name, a record's fields; an arrival not of today (409), a call-in before the arrival (409).
  "doctor_not_served",
  "invalid_doctor",
  "phone_taken",
  "search_required",
  "invalid_date_of_birth",
  "invalid_language",
  "invalid_consent",
  "not_today",
  "not_arrived",
  // Phone numbers as sign-in identities (docs/sms.md, Signing in with a phone): a number outside
  // SMS_COUNTRIES, a desk record's date of birth missing, wrong, or tried too often.
  "phone_country_unsupported",
  "date_of_birth_required",
  "date_of_birth_mismatch",
  "claim_locked",
  // The desk unlocking a claim (POST /reception/patients/{id}/claim-unlock): the record is already
  // someone's account (claimed, or made online), there is no claim to unlock.
  "already_claimed",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every answer with a 4xx or 5xx status. */
export const apiError = z.object({ message: z.string(), code: z.enum(ERROR_CODES) });
export type ApiError = z.output<typeof apiError>;
