// The book and request forms (docs/product.md, Screens and routes and Validation), shared by the action and the browser
// (conform). Errors are translation keys.
import { z } from "../../zod.ts";
import {
  APPOINTMENT_TYPES,
  CONNECTION_QUALITIES,
  DEVICE_TYPES,
  SLOTS,
  VIDEO_PLATFORMS,
} from "../../../contract/constants.ts";
import { isStartTime } from "../../start-time.ts";

const onlineDetails = {
  deviceType: z.enum(DEVICE_TYPES).optional(),
  internetQuality: z.enum(CONNECTION_QUALITIES).optional(),
  videoPreference: z.enum(VIDEO_PLATFORMS).optional(),
  reason: z.string().trim().max(1000, "patient:form.reasonTooLong").optional(),
};

const day = (today: string, required: string) =>
  z
    .string({ error: required })
    .regex(/^\d{4}-\d{2}-\d{2}$/, required)
    .refine((d) => d >= today, "patient:form.datePast");

export function bookSchema(today: string) {
  return z.object({
    doctorId: z.string({ error: "patient:book.failed" }),
    type: z.enum(APPOINTMENT_TYPES, { error: "patient:form.typeRequired" }),
    date: day(today, "patient:form.dateRequired"),
    // Any start of the doctor's plan: the API's availability rule says whether it is one (docs/product.md).
    time: z.string({ error: "patient:book.slotRequired" }).refine(isStartTime, "patient:book.slotRequired"),
    ...onlineDetails,
  });
}

export function requestSchema(today: string) {
  return z.object({
    specialityId: z.coerce
      .number({ error: "patient:request.specialityRequired" })
      .int()
      .positive("patient:request.specialityRequired"),
    type: z.enum(APPOINTMENT_TYPES, { error: "patient:form.typeRequired" }),
    date: day(today, "patient:form.dateRequired"),
    // The six preferred times of the specification: a doctor who takes the request proposes a start of their own plan.
    time: z.enum(SLOTS, { error: "patient:request.timeRequired" }),
    countryId: z.coerce.number().int().positive().optional(),
    cityId: z.coerce.number().int().positive().optional(),
    residenceAddress: z.string().trim().max(300, "patient:request.addressTooLong").optional(),
    ...onlineDetails,
  });
}

/** The details the API keeps with an appointment: the online ones for online visits, the address for in-person ones. */
export function detailsOf(v: {
  type: string;
  deviceType?: string;
  internetQuality?: string;
  videoPreference?: string;
  reason?: string;
  residenceAddress?: string;
}) {
  return v.type === "online"
    ? {
        deviceType: v.deviceType,
        internetQuality: v.internetQuality,
        videoPreference: v.videoPreference,
        reason: v.reason,
      }
    : { reason: v.reason, residenceAddress: v.residenceAddress };
}
