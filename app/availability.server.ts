// What the availability pages (the doctor's plan and absences, the admin's closed days) share on the
// server: reading the API's refusal of a form, with the appointments an absence or a closed day
// would hit from its 409, and adding and removing an absence or a closed day, one operation on two
// scopes.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { redirectWithToast } from "./toast.server.ts";
import type { Upstream } from "./upstream.server.ts";
import { type UpstreamFailure, upstreamErrorKey } from "./upstream-errors.ts";
import type { Conflicts } from "./availability-schemas.ts";
import type { z } from "zod";
import type { periodConflict } from "../contract/availability.ts";

/**
 * The pending and confirmed appointments a refused absence or closed day holds (the API's 409
 * lists the soonest and counts them all), or null when the refusal is about something else.
 */
export function conflictsOf(failure: UpstreamFailure): Conflicts | null {
  if (failure.status !== 409 || failure.code !== "appointments_in_period") return null;
  const { appointments, total } = failure.body as unknown as z.infer<typeof periodConflict>;
  const list = appointments.map((a) => ({
    id: a.id,
    date: a.date,
    time: a.time,
    patient: a.Patient?.username ?? null,
    doctor: a.Doctor?.username ?? null,
  }));
  // An API older than the count (a rolling deployment) lists every appointment.
  return { list, total: total ?? list.length };
}

/**
 * The form field a refusal is about, by its code (the API answers a refused field 400 with that
 * field's code; a closed day that exists already is a 409 about the date), or null when it names
 * none of them.
 */
function fieldOfRefusal(failure: UpstreamFailure, fields: Record<string, string>): string | null {
  return failure.code && Object.hasOwn(fields, failure.code) ? fields[failure.code]! : null;
}

/**
 * The API's refusal of an availability form, for the form to show: the appointments it would hit
 * (the form then shows no error: the list asks), else the message beside the field it names
 * (`fields`: API code -> field) or above the form (`fallback` when the code has no words of its own).
 */
export function refusalOf(
  submission: { reply(options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult },
  failure: UpstreamFailure,
  fields: Record<string, string>,
  fallback: string,
) {
  const conflicts = conflictsOf(failure);
  const field = fieldOfRefusal(failure, fields);
  const message = upstreamErrorKey(failure, "availability", fallback);
  const result = submission.reply(
    conflicts ? {} : field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] },
  );
  return { result, conflicts };
}

/**
 * Adds an absence or a closed day from its form (`formData`, checked with `schema`, the form's own
 * schema): a form the schema refuses comes back with its errors; else `call.body` of the form's
 * values is posted to the API at `call.path`, and the page goes back to `page` with the `added`
 * toast (`addedCancelling` when the appointments in the way are cancelled with it), or the refusal
 * comes back for the form to show, with those appointments (`fields` and `failed` as for refusalOf).
 */
export async function addPeriod<Value extends { cancelAppointments?: boolean }>(
  api: Upstream,
  formData: FormData,
  schema: z.ZodType<Value>,
  call: { path: string; body: (value: Value) => object; idempotencyKey?: string },
  refusal: { fields: Record<string, string>; failed: string },
  done: { page: string; added: string; addedCancelling: string },
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return data({ form: "period" as const, result: submission.reply(), conflicts: null }, { status: 400 });
  const answer = await api.call("POST", call.path, {
    body: call.body(submission.value),
    idempotencyKey: call.idempotencyKey,
  });
  if (!answer.ok) {
    const refused = refusalOf(submission, answer, refusal.fields, refusal.failed);
    return data({ form: "period" as const, ...refused }, { status: answer.status });
  }
  const added = submission.value.cancelAppointments ? done.addedCancelling : done.added;
  return redirectWithToast(done.page, { type: "success", message: added });
}

/**
 * Removes an absence or a closed day, the one of `call.collection` whose id the form sent in its
 * `call.field`: back to `page` with the `removed` toast, or the refusal's words.
 */
export async function removePeriod(
  api: Upstream,
  formData: FormData,
  call: { collection: string; field: string; idempotencyKey?: string },
  done: { page: string; removed: string; failed: string },
) {
  const path = `${call.collection}/${encodeURIComponent(String(formData.get(call.field) ?? ""))}`;
  const answer = await api.call("DELETE", path, { idempotencyKey: call.idempotencyKey });
  if (!answer.ok)
    return data(
      { form: "remove" as const, message: upstreamErrorKey(answer, "availability", done.failed) },
      { status: answer.status },
    );
  return redirectWithToast(done.page, { type: "success", message: done.removed });
}
