// The bell's list (docs/product.md, The bell) as the web app reads it: shared by the summary, the
// bell's page and the layout, which reloads the count when the bell's page is opened.

/** The bell's page: its list comes with the summary, marked seen before the count is taken. */
export const NOTIFICATIONS_PAGE = "/notifications";

type NotificationKind =
  | "proposal_received"
  | "appointment_confirmed"
  | "appointment_rescheduled"
  | "appointment_cancelled"
  | "appointment_booked"
  | "open_request"
  | "proposal_accepted";

export interface Notification {
  id: number;
  kind: NotificationKind;
  /** Unseen until this view (which marked it seen). */
  new: boolean;
  createdAt: string;
  actorName: string | null;
  Appointment: { id: string; date: string; time: string; status: string; category: string; assigned: boolean };
}

export interface NotificationPage {
  items: Notification[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** Where an entry leads: the appointment's details, in the recipient's own list. */
export function appointmentLink(role: "patient" | "doctor", a: Notification["Appointment"]) {
  const id = encodeURIComponent(a.id);
  if (role === "patient") return `/health/doctors/my-appointments?tab=${a.assigned ? "assigned" : "open"}&appointment=${id}`;
  return `/doctor/appointments?${a.assigned ? "" : "tab=open&"}appointment=${id}`;
}
