// The wire of the doctor's own side of /doctor (docs/product.md, The API): the profile
// (GET /doctor/doctor-info, PUT /doctor/me), the summary every doctor page reads, the dashboard,
// the patients a consultation may be about, and the data download. A refused profile field
// answers invalid_<field> (invalid_username, invalid_contact, invalid_city...).
import { z } from "zod";
import { DOCTOR_VERIFICATIONS, GENDERS } from "./constants.ts";
import { appointment, doctorAppointment } from "./appointment.ts";
import { consultationRecord } from "./consultation.ts";
import { country, place } from "./reference.ts";
import { clearableId, clearableText, coded } from "./fields.ts";
import { bell } from "./notification.ts";

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

/** A required text of 3 to 50 characters: it may change, never be emptied. */
const name = (label: string) => {
  const short = `${label} must be at least 3 characters`;
  return z.preprocess(
    trimmed,
    z.string(short).min(3, short).max(50, `${label} must be at most 50 characters`).optional(),
  );
};

/**
 * PUT /doctor/me: fields left out stay as they are, "" and null clear a clearable one. The
 * specialities are not here: the admin assigns them at verification.
 */
export const doctorProfileUpdateBody = z.object({
  username: coded(name("Doctor name"), "invalid_username"),
  serial_number: coded(name("Serial number"), "invalid_serial_number"),
  // Checked and normalised by the API in the region of the profile's country.
  contact: coded(clearableText(30, "Invalid contact format"), "invalid_contact"),
  gender: coded(
    z.preprocess((v) => (v === "" ? null : v), z.enum(["male", "female"], "Invalid gender").nullable().optional()),
    "invalid_gender",
  ),
  duty_hospital: coded(clearableText(200, "The duty hospital must be at most 200 characters"), "invalid_duty_hospital"),
  biography: coded(clearableText(2000, "The biography must be at most 2000 characters"), "invalid_biography"),
  countryId: coded(clearableId("Invalid country"), "invalid_country"),
  cityId: coded(clearableId("Invalid city"), "invalid_city"),
});
export type DoctorProfileUpdate = z.input<typeof doctorProfileUpdateBody>;
export type DoctorProfileChanges = z.output<typeof doctorProfileUpdateBody>;

/** GET /doctor/doctor-info, and the answer of PUT /doctor/me. */
export const doctorProfile = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  contact: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  serial_number: z.string(),
  duty_hospital: z.string().nullable(),
  biography: z.string().nullable(),
  startYear: z.number().int().nullable(),
  countryId: z.number().int().nullable(),
  cityId: z.number().int().nullable(),
  Country: country.nullable(),
  City: place.nullable(),
  /** By English name; the admin's choice, read-only here. */
  specialities: z.array(z.object({ id: z.number().int(), name: z.string(), nameFr: z.string() })),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  verification: z.enum(DOCTOR_VERIFICATIONS),
  /** The admin's reason, once rejected (null otherwise, or when none was given). */
  rejectionReason: z.string().nullable(),
});
export type DoctorProfile = z.infer<typeof doctorProfile>;

/** GET /doctor/summary: the bell, and the verification state every doctor page shows. */
export const doctorHome = bell.extend({
  verification: z.enum(DOCTOR_VERIFICATIONS),
  rejectionReason: z.string().nullable(),
});
export type DoctorHome = z.infer<typeof doctorHome>;

/** GET /doctor/dashboard: the four counters and today's appointments. */
export const doctorDashboard = z.object({
  todayAppointments: z.number().int(),
  upcomingAppointments: z.number().int(),
  totalPatients: z.number().int(),
  completedToday: z.number().int(),
  todaySchedule: z.array(doctorAppointment),
});
export type DoctorDashboard = z.infer<typeof doctorDashboard>;

/** GET /doctor/patients: who a consultation may be about, by name. */
export const doctorPatients = z.array(z.object({ id: z.string(), username: z.string() }));
export type PatientOption = z.infer<typeof doctorPatients>[number];

/** GET /doctor/export: everything the product holds about the doctor's practice. */
export const doctorExport = z.object({
  exportedAt: z.string(),
  profile: doctorProfile,
  appointments: z.array(appointment),
  consultations: z.array(consultationRecord),
});
