// The wire of /patient (docs/product.md, The API, Data and Who saw my data): the patient's own
// profile and its update, 'Who saw my data', the data download and the summary every patient page
// reads. A refused profile field answers invalid_<field> (invalid_username, invalid_phone,
// invalid_city...).
import { z } from "zod";
import { appointment, patientAppointment } from "./appointment.ts";
import { GENDERS, PROPOSAL_STATUSES, ROLES } from "./constants.ts";
import { clearableId, clearableText, coded, pageFields, pagination } from "./fields.ts";
import { bell } from "./notification.ts";
import { country, place } from "./reference.ts";

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
const SHORT_NAME = "Username must be at least 3 characters";

/**
 * PUT /patient/me: fields left out stay as they are, "" and null clear a clearable one. The phone
 * is checked and normalised by the API in the region of the profile's country (after the update).
 */
export const patientProfileUpdateBody = z.object({
  username: coded(
    z.preprocess(
      trimmed,
      z.string(SHORT_NAME).min(3, SHORT_NAME).max(50, "Username must be at most 50 characters").optional(),
    ),
    "invalid_username",
  ),
  phone: coded(clearableText(30, "Please enter a valid phone number"), "invalid_phone"),
  address: coded(clearableText(500, "The address must be at most 500 characters"), "invalid_address"),
  gender: coded(
    z.preprocess((v) => (v === "" ? null : v), z.enum(GENDERS, "Invalid gender").nullable().optional()),
    "invalid_gender",
  ),
  profession: coded(clearableText(100, "The profession must be at most 100 characters"), "invalid_profession"),
  countryId: coded(clearableId("Invalid country"), "invalid_country"),
  cityId: coded(clearableId("Invalid city"), "invalid_city"),
});
export type PatientProfileUpdate = z.input<typeof patientProfileUpdateBody>;

/** GET /patient/me, and the answer of PUT /patient/me. */
export const patientProfile = z.object({
  id: z.string(),
  username: z.string(),
  /** Null for a patient who signs in with their phone only. */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  /** YYYY-MM-DD */
  dateOfBirth: z.string().nullable(),
  profession: z.string().nullable(),
  countryId: z.number().int().nullable(),
  cityId: z.number().int().nullable(),
  Country: country.nullable(),
  City: place.nullable(),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
});
export type PatientProfile = z.infer<typeof patientProfile>;

const ACCESS_LOG_PAGE_SIZE = 20;
const ACCESS_LOG_PAGE_MAX = 100;

/** GET /patient/access-log */
export const accessLogQuery = z.object({ ...pagination(ACCESS_LOG_PAGE_SIZE, ACCESS_LOG_PAGE_MAX) });

/** One read or change of the patient's data by someone else. */
const accessEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  /** The day and wall-clock time in the clinic's zone, as the other lists write them. */
  date: z.string(),
  time: z.string(),
  /** What was done (read, update...) to which kind of data (appointment, profile...): the screen names the pairs it knows. */
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** null when the event records no one. */
  Actor: z.object({ id: z.string(), username: z.string(), role: z.enum(ROLES).nullable() }).nullable(),
});
export type AccessEvent = z.infer<typeof accessEvent>;

/** GET /patient/access-log: newest first. */
export const accessLogPage = z.object({ items: z.array(accessEvent), ...pageFields });
export type AccessLogPage = z.infer<typeof accessLogPage>;

/** GET /patient/export: everything the product holds about the patient, events oldest first. */
export const patientExport = z.object({
  exportedAt: z.string(),
  profile: patientProfile,
  appointments: z.array(
    appointment.extend({
      proposals: z.array(
        z.object({
          id: z.string(),
          status: z.enum(PROPOSAL_STATUSES),
          createdAt: z.string(),
          updatedAt: z.string().nullable(),
          Doctor: z.object({ id: z.string(), username: z.string() }),
        }),
      ),
    }),
  ),
  accessLog: z.array(accessEvent),
});
export type PatientExport = z.infer<typeof patientExport>;

/** The patient home's cards. */
const patientDashboard = z.object({
  upcoming: patientAppointment.nullable(),
  confirmed: z.array(patientAppointment),
  /** Confirmed appointments still to come (the badge beside the confirmed list). */
  confirmedAhead: z.number().int(),
  /** Every appointment, whatever its status (the link to the full list). */
  total: z.number().int(),
});
export type PatientDashboard = z.infer<typeof patientDashboard>;

/** GET /patient/summary: the bell, and with ?dashboard=1 the home's cards. */
export const patientHome = bell.extend({ dashboard: patientDashboard.optional() });
export type PatientHome = z.infer<typeof patientHome>;

/** GET /patient/notifications: the bell's count alone. */
export const unseenNotifications = z.object({ count: z.number().int() });
export type UnseenNotifications = z.infer<typeof unseenNotifications>;
