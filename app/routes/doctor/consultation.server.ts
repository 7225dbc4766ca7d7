// The consultation records of the signed-in doctor (the /consultation extension of docs/product.md, Where we depart from the original screens).
import type { Consultation, ConsultationPage } from "../../../contract/consultation.ts";
import type { PatientOption } from "../../../contract/doctor-profile.ts";
import type { Upstream } from "../../upstream.server.ts";

/** One page of records, newest first, at the API's page size (20). */
export async function listConsultations(api: Upstream, search: string, page: number) {
  return api.get<ConsultationPage>("/consultation", { search, page });
}

/** One record, or null when it is not this doctor's (the edit dialog of a link kept from another page). */
export async function findConsultation(api: Upstream, id: string) {
  const answer = await api.call<Consultation>("GET", `/consultation/${encodeURIComponent(id)}`);
  return answer.ok ? answer.data : null;
}

export async function listPatients(api: Upstream) {
  return api.get<PatientOption[]>("/doctor/patients");
}

export async function getConsultation(api: Upstream, id: string) {
  return api.get<Consultation>(`/consultation/${encodeURIComponent(id)}`);
}
