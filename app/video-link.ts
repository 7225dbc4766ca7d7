// The video link as an appointment's dialog shows it: made by app/calendar.server.ts from the
// API's answer, drawn by app/components/appointment-calendar.tsx. A module of its own, so that the
// server side never imports a UI component for a type (docs/architecture.md).

/** The link inside the window, or before it the time it appears (HH:mm, clinic zone). */
export interface VideoLink {
  url: string | null;
  opensAt: string | null;
}
