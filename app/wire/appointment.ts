// Wire shapes of appointments as the screens read them from the upstream (docs/product.md, Data, api/appointment/serialize.ts).
export const SLOTS = ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"] as const;
export const APPOINTMENT_STATUSES = ["pending", "proposed", "confirmed", "completed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export interface Person {
  id: string;
  username: string;
  avatarUrl: string | null;
}

export interface Appointment {
  id: string;
  status: AppointmentStatus;
  type: string;
  category: "direct" | "random";
  /** YYYY-MM-DD in the clinic time zone. */
  date: string;
  /** ISO 8601 with the clinic offset, e.g. 2026-12-01T09:00:00+01:00. */
  time: string;
  place: string | null;
  city: string | null;
  country: string | null;
  price: number | null;
  doctorId: string | null;
  patientId: string;
  Patient: Person | null;
  Doctor: Person | null;
  Speciality: { id: number; name: string; nameFr?: string } | null;
  Country?: { id: number; name: string; code?: string } | null;
  /** What the patient wrote: reason, online details, residence address (api/appointment/booking.ts). */
  details?: AppointmentDetails;
  /** On open requests: this doctor's own proposal, if any. */
  myProposal?: { id: string; status: string } | null;
  /** The doctor already holds this slot with another appointment: no proposal possible. */
  slotHeld?: boolean;
}

interface AppointmentDetails {
  reason?: string;
  deviceType?: string;
  internetQuality?: string;
  videoPreference?: string;
  residenceAddress?: string;
}

export interface AppointmentPage {
  appointments: Appointment[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** HH:mm of an appointment, read from its offset timestamp (already in the clinic zone). */
export const slotOf = (a: Pick<Appointment, "time">) => a.time.slice(11, 16);
