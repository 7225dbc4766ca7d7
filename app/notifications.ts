// The bell's list (docs/product.md, The bell) as the web app reads it: shared by the summary, the
// bell's page and the layout, which reloads the count when the bell's page is opened.

/** The bell's page: its list comes with the summary, marked seen before the count is taken. */
export const NOTIFICATIONS_PAGE = "/notifications";

import type { Notification } from "../contract/notification.ts";

/** Where an entry leads: the appointment's details, in the recipient's own list. */
export function appointmentLink(role: "patient" | "doctor", a: Notification["Appointment"]) {
  const id = encodeURIComponent(a.id);
  if (role === "patient") return `/health/doctors/my-appointments?tab=${a.assigned ? "assigned" : "open"}&appointment=${id}`;
  return `/doctor/appointments?${a.assigned ? "" : "tab=open&"}appointment=${id}`;
}
