// The wire of /admin (docs/product.md, Accounts and codes and The front desk): the admin's list of
// doctor registrations by verification status, the two decisions on one (approve with the
// specialities it practises, or reject with an optional reason), and the front desk's staff.
import { z } from "zod";
import {
  ADMIN_DOCTOR_PAGE_MAX,
  ADMIN_DOCTOR_PAGE_SIZE,
  ADMIN_DOCTOR_SEARCH_MAX,
  DOCTOR_VERIFICATIONS,
  STAFF_DOCTORS_MAX,
  STAFF_PAGE_MAX,
  STAFF_PAGE_SIZE,
} from "./constants.ts";
import { email, username } from "./auth.ts";
import { coded, optionalText, pageFields, pagination, requiredId, uuid } from "./fields.ts";

/**
 * GET /admin/doctors: the registrations awaiting a decision unless another status is asked for;
 * `q` keeps those whose name holds it (any case; the staff page's doctor choice).
 */
export const adminDoctorListQuery = z.object({
  status: coded(
    z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.enum(DOCTOR_VERIFICATIONS, "Invalid status").default("pending"),
    ),
    "invalid_status",
  ),
  q: optionalText(ADMIN_DOCTOR_SEARCH_MAX, "search"),
  ...pagination(ADMIN_DOCTOR_PAGE_SIZE, ADMIN_DOCTOR_PAGE_MAX),
});
export type AdminDoctorListQuery = z.input<typeof adminDoctorListQuery>;

/** POST /admin/doctors/{id}/approve: the specialities the doctor practises (ids, repeats ignored). */
export const approveBody = z.object({
  specialityIds: coded(
    z
      .array(requiredId("speciality", "Invalid speciality"), "specialityIds must be a list")
      .max(20, "At most 20 specialities")
      .default([]),
    "invalid_speciality",
  ),
});
export type Approval = z.input<typeof approveBody>;

/** POST /admin/doctors/{id}/reject: the reason the doctor is told, if the admin gives one. */
export const rejectBody = z.object({ reason: coded(optionalText(500, "reason"), "invalid_reason") });
export type Rejection = z.input<typeof rejectBody>;

/** A registration as the admin decides on it; also the answer of both decisions. */
export const adminDoctor = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  serial_number: z.string(),
  contact: z.string().nullable(),
  createdAt: z.string(),
  verification: z.enum(DOCTOR_VERIFICATIONS),
  verifiedAt: z.string().nullable(),
  specialities: z.array(z.object({ id: z.number().int(), name: z.string(), nameFr: z.string() })),
});

export const adminDoctorPage = z.object({ doctors: z.array(adminDoctor), ...pageFields });
export type AdminDoctorPage = z.infer<typeof adminDoctorPage>;

/** The doctors a receptionist serves (ids, repeats ignored): they see and book only these doctors' days. */
const servedDoctors = coded(
  z
    .array(uuid("Invalid doctor"), "doctorIds must be a list")
    .max(STAFF_DOCTORS_MAX, `At most ${STAFF_DOCTORS_MAX} doctors`)
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
    .default([]),
  "invalid_doctor",
);

/**
 * POST /admin/staff: a receptionist, who receives an invitation e-mail with a 6-digit code that sets
 * their password (POST /auth/reset-password). 201 `{id}`; 409 email_taken for an address in use.
 */
export const staffBody = z.object({ username: username("Name"), email, doctorIds: servedDoctors });
export type StaffRequest = z.input<typeof staffBody>;

/** PUT /admin/staff/{id}: the doctors served, replacing the previous list. */
export const staffUpdateBody = z.object({ doctorIds: servedDoctors });
export type StaffUpdate = z.input<typeof staffUpdateBody>;

/** POST /admin/staff */
export const createdStaff = z.object({ id: z.string() });

/** A receptionist as the admin manages them; also the answer of PUT and DELETE /admin/staff/{id}. */
const staffMember = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  createdAt: z.string(),
  /** When DELETE /admin/staff/{id} deactivated them (tokens revoked, login refused); null while active. */
  deactivatedAt: z.string().nullable(),
  /** Whether they have set a password from the invitation yet. */
  invitationAccepted: z.boolean(),
  doctors: z.array(z.object({ id: z.string(), username: z.string() })),
});
export type StaffMember = z.infer<typeof staffMember>;

/**
 * GET /admin/staff: the receptionists, newest first (the one just invited or deactivated is on the
 * first page), a page at a time: deactivated ones are kept for good, so the list only grows.
 */
export const staffListQuery = z.object(pagination(STAFF_PAGE_SIZE, STAFF_PAGE_MAX));
export type StaffListQuery = z.input<typeof staffListQuery>;
export const staffList = z.object({ staff: z.array(staffMember), ...pageFields });
export type StaffList = z.infer<typeof staffList>;
