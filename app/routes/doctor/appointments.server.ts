// Actions of the doctor's appointments screen: each is one upstream call, then a redirect with a
// toast (post/redirect/get), except reschedule errors, which keep the form and its values.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Upstream } from "../../upstream.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { withParams } from "../../components/dialog.tsx";
import { pageOf } from "../../auth.server.ts";
import { rescheduleSchema } from "./reschedule-schema.ts";

/** Translation keys for the upstream's stable error codes. */
const errorKeys: Record<string, string> = {
  doctor_unverified: "doctor:errors.unverified",
  not_verified: "doctor:errors.unverified",
  slot_taken: "doctor:reschedule.slotTaken",
  slot_held: "doctor:appointments.slotHeld",
  unchanged: "doctor:reschedule.unchanged",
  past_date: "doctor:reschedule.pastDate",
  invalid_slot: "doctor:reschedule.timeRequired",
  network: "common:errors.network",
};

const statusFor = { confirm: "confirmed", cancel: "cancelled", complete: "completed" } as const;

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
  const back = withParams(pageOf(request), { appointment: null, edit: null });
  const path = `/appointment/${encodeURIComponent(id)}`;

  if (intent === "confirm" || intent === "cancel" || intent === "complete") {
    const answer = await api.call("PUT", path, { body: { status: statusFor[intent] }, idempotencyKey });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: `doctor:toast.${intent}` });
    return redirectWithToast(back, { type: "error", message: errorKeys[answer.code ?? ""] ?? "doctor:toast.updateFailed" });
  }

  if (intent === "propose") {
    const answer = await api.call("POST", "/appointment-proposal", { body: { doctorId, appointmentId: id }, idempotencyKey });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: "doctor:toast.proposed" });
    return redirectWithToast(back, { type: "error", message: errorKeys[answer.code ?? ""] ?? "doctor:toast.proposeFailed" });
  }

  if (intent === "reschedule") {
    const submission = parseWithZod(formData, { schema: rescheduleSchema(today) });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const { date, time } = submission.value;
    const answer = await api.call("PUT", path, { body: { date, time }, idempotencyKey });
    if (answer.ok) return redirectWithToast(back, { type: "success", message: "doctor:toast.rescheduled" });
    const message = errorKeys[answer.code ?? ""] ?? "doctor:toast.rescheduleFailed";
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: answer.status });
  }

  return data({ result: null }, { status: 400 });
}
