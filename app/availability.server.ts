// What the availability pages (the doctor's absences, the admin's closed days) share on the server:
// reading the appointments an absence or a closed day would hit from the API's 409.
import type { UpstreamFailure } from "./upstream-errors.ts";
import type { Conflict } from "./availability-schemas.ts";
import type { z } from "zod";
import type { periodConflict } from "../contract/availability.ts";

/**
 * The pending and confirmed appointments a refused absence or closed day holds (the API's 409
 * lists them), or null when the refusal is about something else.
 */
export function conflictsOf(failure: UpstreamFailure): Conflict[] | null {
  if (failure.status !== 409 || failure.code !== "appointments_in_period") return null;
  const { appointments } = failure.body as unknown as z.infer<typeof periodConflict>;
  return appointments.map((a) => ({
    id: a.id,
    date: a.date,
    time: a.time,
    patient: a.Patient?.username ?? null,
    doctor: a.Doctor?.username ?? null,
  }));
}

/**
 * The form field a refusal is about, by its code (the API answers a refused field 400 with that
 * field's code; a closed day that exists already is a 409 about the date), or null when it names
 * none of them.
 */
export function fieldOfRefusal(failure: UpstreamFailure, fields: Record<string, string>): string | null {
  return failure.code && Object.hasOwn(fields, failure.code) ? fields[failure.code]! : null;
}
