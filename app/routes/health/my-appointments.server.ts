// The patient's appointments page, server side: the list with its tab and filters, the selected
// appointment with its proposals, and the cancel / accept / reject actions.
import { data } from "react-router";
import { withParams } from "../../url.ts";
import { isOpenRequest } from "../../patient-rules.ts";
import { APPOINTMENT_STATUSES, PROPOSAL_PAGE_SIZE } from "../../../contract/constants.ts";
import type { PatientAppointment, PatientAppointmentPage, Proposal } from "../../../contract/appointment.ts";
import { redirectWithToast } from "../../toast.server.ts";
import type { Upstream } from "../../upstream.server.ts";
import { videoLinkOf } from "../../calendar.server.ts";
import { pageNumber } from "../../url.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { PatientChange } from "../../../contract/appointment.ts";

const APPOINTMENT_PAGE_SIZE = 20;

async function findOne(api: Upstream, list: PatientAppointment[], id: string | null) {
  if (!id) return null;
  const inList = list.find((a) => a.id === id);
  if (inList) return inList;
  const one = await api.call<PatientAppointment>("GET", `/appointment/${encodeURIComponent(id)}`);
  return one.ok ? one.data : null;
}

/** A page of an open request's proposals; a failure is said in the user's words, not the API's. */
async function loadProposals(
  api: Upstream,
  appointmentId: string,
  page: number,
): Promise<{ items: Proposal[]; failed: false } | { items: null; failed: true }> {
  const answer = await api.call<Proposal[]>("GET", "/appointment-proposal", {
    query: { appointmentId, page, limit: PROPOSAL_PAGE_SIZE },
  });
  return answer.ok ? { items: answer.data, failed: false } : { items: null, failed: true };
}

export async function loadAppointments(api: Upstream, params: URLSearchParams) {
  const tab = params.get("tab") === "open" ? "open" : "assigned";
  const search = params.get("search")?.trim() ?? "";
  const status = (APPOINTMENT_STATUSES as readonly string[]).includes(params.get("status") ?? "")
    ? params.get("status")!
    : "";
  const page = pageNumber(params.get("page"));
  const list = await api.get<PatientAppointmentPage>("/appointment", {
    assigned: tab === "assigned" ? "true" : "false",
    search,
    status,
    page,
    limit: APPOINTMENT_PAGE_SIZE,
  });
  const [selected, cancelling] = await Promise.all([
    findOne(api, list.appointments, params.get("appointment")),
    findOne(api, list.appointments, params.get("cancel")),
  ]);
  // The 'Doctor Proposals' tab exists only for open requests, and is their first tab.
  const view = selected && isOpenRequest(selected) && params.get("view") !== "details" ? "proposals" : "details";
  const proposalPage = pageNumber(params.get("proposalPage"));
  // The dialog's proposals and its video link, side by side rather than one after the other.
  const [proposals, video] = await Promise.all([
    selected && view === "proposals" ? loadProposals(api, selected.id, proposalPage) : null,
    videoLinkOf(api, selected, true),
  ]);
  // Started appointments offer neither Cancel nor Buy; computed here so server and browser agree.
  const now = Date.now();
  const shown = [...list.appointments, ...(selected ? [selected] : []), ...(cancelling ? [cancelling] : [])];
  const started = Object.fromEntries(shown.map((a) => [a.id, Date.parse(a.time) <= now]));
  return {
    tab,
    search,
    status,
    list: {
      appointments: list.appointments.map(listed),
      total: list.total,
      page: list.page,
      totalPages: list.totalPages,
    },
    selected,
    view,
    proposals,
    proposalPage,
    video,
    cancelling: cancelling && !started[cancelling.id] ? listed(cancelling) : null,
    started,
  };
}

/**
 * What a card of the list (and the cancel dialog) shows and acts on, and no more: the page's data
 * is sent again with its first-load JavaScript (docs/decisions/0003-first-load-javascript-budget.md).
 * The details dialog's appointment (`selected`) is sent whole.
 */
function listed(a: PatientAppointment) {
  return {
    id: a.id,
    status: a.status,
    type: a.type,
    category: a.category,
    date: a.date,
    time: a.time,
    endTime: a.endTime,
    place: a.place,
    city: a.city,
    country: a.country,
    Country: a.Country,
    price: a.price,
    doctorId: a.doctorId,
    proposalCount: a.proposalCount,
    Doctor: a.Doctor ? { username: a.Doctor.username } : null,
    Speciality: a.Speciality ? { name: a.Speciality.name, nameFr: a.Speciality.nameFr } : null,
  };
}
export type ListedAppointment = ReturnType<typeof listed>;

/** A refused action, said on the appointment's card or in its dialog until the patient moves on. */
export type Failure = { appointmentId: string; message: string };

/** `here`: the page the form was posted from, to come back to. */
export async function appointmentAction(api: Upstream, formData: FormData, here: string) {
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  const id = encodeURIComponent(String(formData.get("id") ?? ""));

  if (intent === "cancel") {
    const answer = await api.call("PATCH", `/appointment/${id}`, {
      body: { status: "cancelled" } satisfies PatientChange,
      idempotencyKey,
    });
    if (answer.ok)
      return redirectWithToast(withParams(here, { cancel: null }), { type: "success", message: "patient:cancel.done" });
    // Said on the appointment's card (or in its dialog), in words, until the patient moves on.
    const failure: Failure = {
      appointmentId: String(formData.get("id") ?? ""),
      message: upstreamErrorKey(answer, "patientAppointment", "patient:cancel.failed"),
    };
    return data({ failure }, { status: answer.status });
  }
  if (intent === "accept") {
    const answer = await api.call("PATCH", `/appointment-proposal/${id}/accept`, { idempotencyKey });
    // Accepted: the request now has a doctor, so the dialog closes onto 'Assigned to me'.
    if (answer.ok)
      return redirectWithToast("/health/doctors/my-appointments?tab=assigned", {
        type: "success",
        message: "patient:proposals.accepted",
      });
    // Refused: the page shows again (the proposal now listed as unavailable if its slot is taken)
    // with the reason beside that proposal.
    const message = upstreamErrorKey(answer, "proposalAccept", "patient:proposals.acceptFailed");
    return data({ proposalError: { id: String(formData.get("id") ?? ""), message } }, { status: answer.status });
  }
  if (intent === "reject") {
    const answer = await api.call("PATCH", `/appointment-proposal/${id}/reject`, { idempotencyKey });
    if (answer.ok) return redirectWithToast(here, { type: "success", message: "patient:proposals.rejected" });
    // Like a refused accept: said beside that proposal, which the page shows as it stands now.
    const message = upstreamErrorKey(answer, "proposalReject", "patient:proposals.rejectFailed");
    return data({ proposalError: { id: String(formData.get("id") ?? ""), message } }, { status: answer.status });
  }
  return redirectWithToast(here, { type: "error", message: "common:errors.somethingWrong" });
}
