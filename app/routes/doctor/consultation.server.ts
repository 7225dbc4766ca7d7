// The consultation records of the signed-in doctor (the /consultation extension of DESIGN.md section 4).
import type { Upstream } from "../../upstream.server.ts";

export interface Consultation {
  id: string;
  patientId: string;
  patientName: string;
  patientAvatar: string | null;
  /** YYYY-MM-DD and HH:mm in the clinic zone. */
  date: string;
  time: string;
  type: string;
  diagnosis: string;
  notes: string;
  prescription: string[];
  status: string;
}

export interface PatientOption {
  id: string;
  username: string;
}

const listOf = <T,>(body: unknown, key: string): T[] =>
  Array.isArray(body) ? (body as T[]) : ((body as Record<string, T[]> | null)?.[key] ?? []);

export async function listConsultations(api: Upstream, search: string) {
  return listOf<Consultation>(await api.get<unknown>("/consultation", { search }), "consultations");
}

export async function listPatients(api: Upstream) {
  return listOf<PatientOption>(await api.get<unknown>("/doctor/patients"), "patients");
}

export async function getConsultation(api: Upstream, id: string) {
  return api.get<Consultation>(`/consultation/${encodeURIComponent(id)}`);
}
