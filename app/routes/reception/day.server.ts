// The day sheet's server side: the day asked for, its rows as the desk reads them (the state in the
// clinic's words, the arrival in clinic time, what may be done to each), and its actions.
import { data, redirect } from "react-router";
import type { Upstream } from "../../upstream.server.ts";
import { clinicClock } from "../../clinic.server.ts";
import { formatPhone } from "../../phone.server.ts";
import { pageOf } from "../../auth.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { slotOf, timeRangeOf } from "../../format.ts";
import { withParams } from "../../url.ts";
import { isStartTime } from "../../start-time.ts";
import type { DayAppointment, DaySheet, DeskChange, DeskPatientList, WalkIn } from "../../../contract/reception.ts";
import type { DaySlot } from "../../../contract/appointment.ts";

const isDay = (value: string | null): value is string =>
  Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));

/** A row as the page shows it; everything the browser needs is worked out here, so server and browser agree. */
function rowOf(a: DayAppointment, today: string, now: number) {
  const { state } = a;
  const expected = state === "booked";
  const started = Date.parse(a.time) <= now;
  return {
    id: a.id,
    doctorId: a.Doctor.id,
    time: slotOf(a),
    // '08:40–09:00' (the API says when a visit ends).
    timeRange: timeRangeOf(a),
    walkIn: a.walkIn,
    state,
    patient: {
      name: a.Patient.username,
      phone: a.Patient.phone,
      phoneShown: a.Patient.phone ? formatPhone(a.Patient.phone) : null,
    },
    arrival: a.arrivedAt ? clinicClock(a.arrivedAt) : null,
    canArrive: expected && a.date === today,
    canMiss: expected && started,
    cancellable: (expected || state === "pending") && !started && !a.walkIn,
  };
}
export type SheetRow = ReturnType<typeof rowOf>;

export async function daySheetOf(api: Upstream, asked: string | null, today: string) {
  const date = isDay(asked) ? asked : today;
  const sheet = await api.get<DaySheet>("/reception/day", { date });
  const now = Date.now();
  return {
    date,
    doctors: sheet.doctors.map((doctor) => ({ id: doctor.id, username: doctor.username })),
    rows: sheet.appointments.map((a) => rowOf(a, today, now)),
  };
}

/**
 * The reschedule dialog's day (?rescheduleDate=, else the sheet's day) and the start times of the
 * row's doctor's plan that day (none on a day not worked, null when they could not be read).
 */
export async function rescheduleDayOf(
  api: Upstream,
  row: SheetRow,
  asked: string | null,
  shown: string,
  today: string,
) {
  const date = isDay(asked) && asked >= today ? asked : shown;
  const slots = await api.call<DaySlot[]>("GET", "/appointment/slots", { query: { doctorId: row.doctorId, date } });
  return { date, slots: slots.ok ? slots.data : null };
}

/** A refused action, said on the row it came from (or on the walk-in form: id "walkIn"). */
export interface DayFailure {
  id: string;
  message: string;
  /** The walk-in form's and the reschedule dialog's values as sent. */
  phone?: string;
  date?: string;
  time?: string;
  doctorId?: string;
  /** No patient has that phone: a link to create the record, with the number typed. */
  createFor?: string;
}

const refused = (failure: DayFailure, status: number) => data({ failure }, { status: status || 502 });

export async function dayAction(request: Request, api: Upstream, formData: FormData, today: string) {
  const intent = String(formData.get("intent") ?? "");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  const page = pageOf(request);
  if (intent === "walkIn") return walkIn(api, formData, page, idempotencyKey);
  if (intent === "times") {
    // Without JavaScript, 'Show the times' reloads the reschedule dialog on the typed day.
    const asked = String(formData.get("date") ?? "");
    return redirect(withParams(page, { rescheduleDate: isDay(asked) && asked >= today ? asked : null }));
  }
  const id = String(formData.get("appointmentId") ?? "");
  const name = String(formData.get("patientName") ?? "");
  const path = `/reception/appointments/${encodeURIComponent(id)}`;
  if (intent === "reschedule") return reschedule(api, formData, { id, name, path, page, today, idempotencyKey });
  const answer =
    intent === "arrival"
      ? await api.call("POST", `${path}/arrival`, { idempotencyKey })
      : await api.call("PUT", path, {
          body: { status: intent === "cancel" ? "cancelled" : "missed" } satisfies DeskChange,
          idempotencyKey,
        });
  if (!answer.ok)
    return refused({ id, message: upstreamErrorKey(answer, "desk", "reception:manage.failed") }, answer.status);
  const message =
    intent === "arrival"
      ? "reception:day.toast.arrived"
      : intent === "cancel"
        ? "reception:manage.cancelled"
        : "reception:day.toast.noShow";
  return redirectWithToast(withParams(page, { cancel: null }), { type: "success", message, values: { name } });
}

/** The reschedule dialog's date and time: checked here as the API checks them, said in the dialog. */
async function reschedule(
  api: Upstream,
  formData: FormData,
  at: { id: string; name: string; path: string; page: string; today: string; idempotencyKey: string | undefined },
) {
  const date = String(formData.get("date") ?? "");
  const time = String(formData.get("time") ?? "");
  const sent = { id: at.id, date, time };
  if (!isDay(date)) return refused({ ...sent, message: "doctor:reschedule.dateRequired" }, 400);
  if (date < at.today) return refused({ ...sent, message: "doctor:reschedule.pastDate" }, 400);
  if (!isStartTime(time)) return refused({ ...sent, message: "doctor:reschedule.timeRequired" }, 400);
  const answer = await api.call("PUT", at.path, {
    body: { date, time } satisfies DeskChange,
    idempotencyKey: at.idempotencyKey,
  });
  if (!answer.ok)
    return refused({ ...sent, message: upstreamErrorKey(answer, "desk", "reception:manage.failed") }, answer.status);
  return redirectWithToast(withParams(at.page, { reschedule: null, rescheduleDate: null }), {
    type: "success",
    message: "reception:manage.rescheduled",
    values: { name: at.name },
  });
}

/** A walk-in: the patient found by the full phone number, then recorded with the chosen doctor. */
async function walkIn(api: Upstream, formData: FormData, page: string, idempotencyKey: string | undefined) {
  const phone = String(formData.get("phone") ?? "").trim();
  const doctorId = String(formData.get("doctorId") ?? "");
  const sent = { id: "walkIn", phone, doctorId };
  if (!phone) return refused({ ...sent, message: "reception:patients.validation.phoneRequired" }, 400);
  if (!doctorId) return refused({ ...sent, message: "reception:walkIn.chooseDoctor" }, 400);
  const found = await api.call<DeskPatientList>("GET", "/reception/patients", {
    query: { phone },
  });
  if (!found.ok)
    return refused({ ...sent, message: upstreamErrorKey(found, "desk", "reception:walkIn.failed") }, found.status);
  const patient = found.data.patients[0];
  if (!patient) return refused({ ...sent, message: "reception:walkIn.noPatient", createFor: phone }, 404);
  const answer = await api.call("POST", "/reception/walk-ins", {
    body: { patientId: patient.id, doctorId } satisfies WalkIn,
    idempotencyKey,
  });
  if (!answer.ok)
    return refused({ ...sent, message: upstreamErrorKey(answer, "desk", "reception:walkIn.failed") }, answer.status);
  return redirectWithToast(withParams(page, { walkInPhone: null }), {
    type: "success",
    message: "reception:day.toast.walkIn",
    values: { name: patient.username },
  });
}
