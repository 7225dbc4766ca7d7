// The wire of the find-a-doctor search, GET /doctor (docs/product.md, The API): the query and the
// doctors' cards as patients see them.
import { z } from "zod";
import { DOCTOR_PAGE_MAX, DOCTOR_PAGE_SIZE } from "./constants.ts";
import { optionalId, optionalSearch, pageFields, pagination, uuid } from "./fields.ts";
import { country, place } from "./reference.ts";

/** Someone on the other side of an appointment. */
export const person = z.object({ id: z.string(), username: z.string(), avatarUrl: z.string().nullable() });

export const specialityBadge = z.object({
  id: z.number().int(),
  name: z.string(),
  nameFr: z.string(),
  isGeneral: z.boolean(),
});

/** GET /doctor */
export const doctorSearchQuery = z.object({
  search: optionalSearch,
  speciality: optionalId("speciality"),
  city: optionalId("city"),
  country: optionalId("country"),
  id: z.preprocess((v) => (v === "" ? undefined : v), uuid("Invalid doctor id").optional()),
  ...pagination(DOCTOR_PAGE_SIZE, DOCTOR_PAGE_MAX),
});
export type DoctorSearch = z.output<typeof doctorSearchQuery>;

/** A doctor as patients see them: search results, the book dialog, proposals. */
const doctorCard = person.extend({
  specialities: z.array(specialityBadge),
  City: place.nullable(),
  Country: country.nullable(),
  duty_hospital: z.string().nullable(),
  contact: z.string().nullable(),
  startYear: z.number().int().nullable(),
  biography: z.string().nullable(),
  /** What booking would cost now (the fee rule of docs/product.md), in XAF. */
  fee: z.number(),
  /**
   * The first slot a patient can book with this doctor now (the availability rule, within the
   * doctor's horizon), or null when there is none: `date` YYYY-MM-DD, `time` the ISO instant.
   */
  nextSlot: z.object({ date: z.string(), time: z.string() }).nullable(),
});
export type DoctorCard = z.infer<typeof doctorCard>;

/** The card without contact, biography and next slot, as a proposal shows its doctor. */
export const doctorSummary = doctorCard.omit({ contact: true, biography: true, nextSlot: true });
export type DoctorSummary = z.infer<typeof doctorSummary>;

/** One page of the search; past the count cap, `total` is the cap and `totalCapped` true (ADR 0004). */
export const doctorPage = z.object({ doctors: z.array(doctorCard), ...pageFields, totalCapped: z.boolean() });
export type DoctorPage = z.infer<typeof doctorPage>;
