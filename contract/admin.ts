// The wire of /admin (docs/product.md, Accounts and codes): the admin's list of doctor registrations
// by verification status, and the two decisions on one, approve with the specialities it practises
// or reject with an optional reason.
import { z } from "zod";
import { ADMIN_DOCTOR_PAGE_MAX, ADMIN_DOCTOR_PAGE_SIZE, DOCTOR_VERIFICATIONS } from "./constants.ts";
import { coded, optionalText, pageFields, pagination, requiredId } from "./fields.ts";

/** GET /admin/doctors: the registrations awaiting a decision unless another status is asked for. */
export const adminDoctorListQuery = z.object({
  status: coded(
    z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.enum(DOCTOR_VERIFICATIONS, "Invalid status").default("pending"),
    ),
    "invalid_status",
  ),
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
