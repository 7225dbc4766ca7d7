// Wire shapes the patient screens read from the upstream (api/doctor/card.ts, api/appointment/
// serialize.ts, api/proposal/patient.ts, api/patient/profile.ts).
import type { Appointment, Person } from "./appointment.ts";

export { APPOINTMENT_STATUSES, SLOTS, slotOf } from "./appointment.ts";

// The choices of the book and request forms (their zod schemas: routes/health/appointment-schemas.ts).
export const APPOINTMENT_TYPES = ["online", "in-person"] as const;
export const DEVICE_TYPES = ["computer", "tablet", "phone"] as const;
export const CONNECTION_QUALITIES = ["excellent", "good", "fair"] as const;
export const VIDEO_PLATFORMS = ["zoom", "teams", "meet", "webex", "any"] as const;

/** docs/product.md, Constants: proposals are listed 10 per page. */
export const PROPOSAL_PAGE_SIZE = 10;

export interface Place {
  id: number;
  name: string;
}

/** A country carries its ISO code: the screens name it in the reader's language (app/format.ts). */
export interface Country extends Place {
  code?: string;
}

export interface Speciality {
  id: number;
  name: string;
  nameFr?: string;
  isGeneral?: boolean;
}

export interface DoctorCard {
  id: string;
  username: string;
  avatarUrl: string | null;
  specialities: Speciality[];
  City: Place | null;
  Country: Country | null;
  duty_hospital: string | null;
  startYear: number | null;
  fee: number;
}

export interface DoctorPage {
  doctors: DoctorCard[];
  /** Exact, or the count cap of the API when totalCapped (api/doctor/search.ts). */
  total: number;
  totalCapped?: boolean;
  page: number;
  limit: number;
  totalPages: number;
}

export interface Slot {
  time: string;
  available: boolean;
}

export interface PatientAppointment extends Omit<Appointment, "Doctor"> {
  Doctor: (Person & { duty_hospital?: string | null; specialities?: Speciality[] }) | null;
  proposalCount?: number;
}

export interface PatientAppointmentPage {
  appointments: PatientAppointment[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export interface Proposal {
  id: string;
  status: "pending" | "accepted" | "rejected";
  /** False once the doctor holds this slot with another appointment: accepting would fail. */
  available: boolean;
  createdAt: string;
  Doctor: DoctorCard;
  Appointment: { id: string; price: number | null };
}

export interface PatientProfile {
  id: string;
  username: string;
  email: string;
  phone: string | null;
  address: string | null;
  gender: "male" | "female" | "other" | null;
  profession: string | null;
  countryId: number | null;
  cityId: number | null;
  Country: Country | null;
  City: Place | null;
  avatarUrl: string | null;
  createdAt: string;
}
