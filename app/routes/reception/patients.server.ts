// The desk's patients page, server side: the search (a full phone number finds any patient, a name
// the patients of the doctors served), the new patient record with its 409 phone_taken answer, and
// booking for a patient in the patient's own book dialog (?patient=<id>&book=<doctorId>&date=…).
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Upstream } from "../../upstream.server.ts";
import { formatPhone, isPhoneNumber } from "../../phone.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { withParams } from "../../url.ts";
import { bookAction, bookingOf } from "../health/doctors.server.ts";
import { patientSchema } from "./patient-schema.ts";
import { BOOK_FOR } from "./params.ts";
import type {
  DeskBooking,
  DeskPatient,
  DeskPatientList,
  DeskPatientRequest,
  PhoneTaken,
} from "../../../contract/reception.ts";

const shown = (p: Pick<DeskPatient, "id" | "username" | "phone" | "email" | "claimLocked">) => ({
  id: p.id,
  username: p.username,
  phone: p.phone,
  phoneShown: p.phone ? formatPhone(p.phone) : null,
  email: p.email,
  claimLocked: p.claimLocked,
});

export async function searchPatients(api: Upstream, search: string) {
  if (!search) return { patients: null, message: null };
  // A search that is a phone number looks for that number; anything else goes as text (q).
  const query = isPhoneNumber(search) ? { phone: search } : { q: search };
  const found = await api.call<DeskPatientList>("GET", "/reception/patients", { query });
  if (!found.ok) return { patients: [], message: upstreamErrorKey(found, "desk", "reception:patients.searchFailed") };
  return { patients: found.data.patients.map(shown), message: null };
}

/** The book dialog (?patient=<id>&book=<doctorId>&date=…): the patient's record, the doctor and the day's slots. */
export async function deskBookingOf(api: Upstream, params: URLSearchParams, today: string) {
  const patientId = params.get(BOOK_FOR);
  if (!patientId || !params.get("book")) return null;
  const [patient, booking] = await Promise.all([
    api.call<DeskPatient>("GET", `/reception/patients/${encodeURIComponent(patientId)}`),
    bookingOf(api, params, today),
  ]);
  return patient.ok && booking ? { ...booking, patient: shown(patient.data) } : null;
}

export async function patientsAction(api: Upstream, formData: FormData, today: string, page: string) {
  if (formData.get("form") === "book") {
    const patientId = String(formData.get("patientId") ?? "");
    const name = String(formData.get("patientName") ?? "");
    return bookAction(
      api,
      formData,
      today,
      page,
      {
        send: (v, idempotencyKey) =>
          api.call("POST", "/reception/appointments", {
            body: { patientId, doctorId: v.doctorId, type: v.type, date: v.date, time: v.time } satisfies DeskBooking,
            idempotencyKey,
          }),
        toast: { type: "success", message: "reception:book.created", values: { name } },
      },
      [BOOK_FOR],
    );
  }
  if (formData.get("form") === "claimUnlock") return unlockClaim(api, formData, page);
  return createPatient(api, formData, today);
}

/**
 * 'Unlock sign-up' on a record whose claim 5 wrong dates of birth locked, once the receptionist has
 * checked the person's identity: back to the same search, told how it went.
 */
async function unlockClaim(api: Upstream, formData: FormData, page: string) {
  const patientId = String(formData.get("patientId") ?? "");
  const answer = await api.call<DeskPatient>(
    "POST",
    `/reception/patients/${encodeURIComponent(patientId)}/claim-unlock`,
  );
  if (!answer.ok)
    return redirectWithToast(page, {
      type: "error",
      message:
        answer.code === "already_claimed"
          ? "reception:patients.alreadyClaimed"
          : upstreamErrorKey(answer, "desk", "reception:patients.claimUnlockFailed"),
    });
  return redirectWithToast(page, {
    type: "success",
    message: "reception:patients.claimUnlocked",
    values: { name: answer.data.username },
  });
}

async function createPatient(api: Upstream, formData: FormData, today: string) {
  const submission = parseWithZod(formData, { schema: patientSchema(today, isPhoneNumber) });
  if (submission.status !== "success")
    return data({ form: "patient" as const, result: submission.reply(), taken: null }, { status: 400 });
  const v = submission.value;
  const answer = await api.call<DeskPatient>("POST", "/reception/patients", {
    body: {
      username: v.username,
      phone: v.phone,
      email: v.email,
      dateOfBirth: v.dateOfBirth,
      language: v.language,
      smsConsent: v.smsConsent,
    } satisfies DeskPatientRequest,
    idempotencyKey: String(formData.get("idempotencyKey") ?? "") || undefined,
  });
  if (!answer.ok) {
    // The number is already a patient's: the desk books for them rather than making a duplicate.
    if (answer.code === "phone_taken") {
      const taken = (answer.body as Partial<PhoneTaken>).patients ?? [];
      return data(
        {
          form: "patient" as const,
          result: submission.reply({ fieldErrors: { phone: ["reception:patients.phoneTaken"] } }),
          taken: { phone: v.phone, patients: taken.map((p) => ({ id: p.id, username: p.username })) },
        },
        { status: 409 },
      );
    }
    const message = upstreamErrorKey(answer, "desk", "reception:patients.createFailed");
    return data(
      { form: "patient" as const, result: submission.reply({ formErrors: [message] }), taken: null },
      { status: answer.status || 502 },
    );
  }
  // The new record, found by its number: its 'Book with' links are there.
  return redirectWithToast(withParams("/reception/patients", { search: answer.data.phone ?? v.phone }), {
    type: "success",
    message: "reception:patients.created",
    values: { name: answer.data.username },
  });
}
