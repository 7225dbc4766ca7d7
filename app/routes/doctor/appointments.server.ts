// Actions of the doctor's appointments screen: each is one upstream call, then a redirect with a
// toast (post/redirect/get), except reschedule errors, which keep the form and its values.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Upstream } from "../../upstream.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { withParams } from "../../url.ts";
import { specialityName } from "../../format.ts";
import { pageOf } from "../../auth.server.ts";
import { rescheduleSchema } from "./reschedule-schema.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { DaySlot, DoctorAppointment, DoctorChange, ProposalRequest } from "../../../contract/appointment.ts";

const isDay = (value: string | null): value is string =>
  Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));

/**
 * The reschedule form's day (?date=, else the appointment's own day) and the start times of the
 * doctor's plan that day (GET /appointment/slots; none on a day not worked, null when they could
 * not be read).
 */
export async function rescheduleDayOf(
  api: Upstream,
  a: { date: string; doctorId: string | null },
  asked: string | null,
  today: string,
) {
  const date = isDay(asked) && asked >= today ? asked : a.date;
  if (!a.doctorId) return { date, slots: null };
  const slots = await api.call<DaySlot[]>("GET", "/appointment/slots", { query: { doctorId: a.doctorId, date } });
  return { date, slots: slots.ok ? slots.data : null };
}

/**
 * What a card of the list (components/doctor/appointment-card.tsx, with its actions) and the cancel
 * dialog show and act on, and no more: the page's data is sent again with its first-load
 * JavaScript (docs/decisions/0003-first-load-javascript-budget.md). The details dialog's appointment
 * (`selected`) is sent whole.
 */
export function listedAppointment(a: DoctorAppointment, language: string) {
  return {
    id: a.id,
    status: a.status,
    type: a.type,
    date: a.date,
    time: a.time,
    endTime: a.endTime,
    doctorId: a.doctorId,
    myProposal: a.myProposal,
    slotHeld: a.slotHeld,
    patientMissed: a.patientMissed,
    Patient: a.Patient ? { username: a.Patient.username, avatarUrl: a.Patient.avatarUrl } : null,
    // Named in the page's language only.
    Speciality: a.Speciality ? { name: specialityName(a.Speciality, language) } : null,
  };
}
export type ListedAppointment = ReturnType<typeof listedAppointment>;

/** The status each action's intent asks for, and the toast that says it was done. */
const statusChanges = {
  confirm: { status: "confirmed", toast: "doctor:toast.confirm" },
  cancel: { status: "cancelled", toast: "doctor:toast.cancel" },
  complete: { status: "completed", toast: "doctor:toast.complete" },
  missed: { status: "missed", toast: "doctor:noShow.marked" },
} as const;

/** A failed action, shown beside the card or in the dialog it came from until the next page (docs/forms.md). */
export interface ActionFailure {
  appointmentId: string;
  message: string;
  /** The appointment's status now, when the failure is that it changed meanwhile. */
  status: DoctorAppointment["status"] | null;
}

async function failed(
  api: Upstream,
  appointmentId: string,
  answer: { status: number; code?: string },
  fallback: string,
) {
  let status: ActionFailure["status"] = null;
  if (answer.status !== 404 && (answer.code === "invalid_transition" || answer.code === "already_final")) {
    const now = await api.call<DoctorAppointment>("GET", `/appointment/${encodeURIComponent(appointmentId)}`);
    status = now.ok ? now.data.status : null;
  }
  const failure: ActionFailure = {
    appointmentId,
    message: upstreamErrorKey(answer, "doctorAppointment", fallback),
    status,
  };
  return data({ failure }, { status: answer.status || 502 });
}

export async function appointmentAction({
  request,
  formData,
  api,
  doctorId,
  today,
}: {
  request: Request;
  formData: FormData;
  api: Upstream;
  doctorId: string;
  today: string;
}) {
  const intent = String(formData.get("intent") ?? "");
  const id = String(formData.get("appointmentId") ?? "");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  const back = withParams(pageOf(request), { appointment: null, edit: null, cancel: null, date: null });
  const path = `/appointment/${encodeURIComponent(id)}`;

  if (Object.hasOwn(statusChanges, intent)) {
    const change = statusChanges[intent as keyof typeof statusChanges];
    const answer = await api.call("PUT", path, {
      body: { status: change.status } satisfies DoctorChange,
      idempotencyKey,
    });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: change.toast });
    return failed(api, id, answer, "doctor:toast.updateFailed");
  }

  if (intent === "propose") {
    const answer = await api.call("POST", "/appointment-proposal", {
      body: { doctorId, appointmentId: id } satisfies ProposalRequest,
      idempotencyKey,
    });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: "doctor:toast.proposed" });
    return failed(api, id, answer, "doctor:toast.proposeFailed");
  }

  if (intent === "times") {
    // Without JavaScript, 'Show the times' reloads the reschedule form on the typed day.
    const asked = String(formData.get("date") ?? "");
    return redirect(withParams(pageOf(request), { date: isDay(asked) && asked >= today ? asked : null }));
  }

  if (intent === "reschedule") {
    const submission = parseWithZod(formData, { schema: rescheduleSchema(today) });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const { date, time } = submission.value;
    const answer = await api.call("PUT", path, { body: { date, time } satisfies DoctorChange, idempotencyKey });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: "doctor:toast.rescheduled" });
    const message = upstreamErrorKey(answer, "doctorAppointment", "doctor:toast.rescheduleFailed");
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: answer.status });
  }

  return data({ result: null }, { status: 400 });
}
