import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  index("routes/index.tsx"),
  route("login", "routes/auth/login.tsx"),
  route("register", "routes/auth/register.tsx"),
  route("verification", "routes/auth/verification.tsx"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("language", "routes/language.tsx"),
  route("terms", "routes/legal.tsx", { id: "terms" }),
  route("privacy", "routes/legal.tsx", { id: "privacy" }),
  // A calendar application fetches the private feed with no session (docs/calendars.md).
  route("calendar/feed/:file", "routes/calendar-feed.ts"),
  // The link of a text message (docs/sms.md).
  route("a/:id", "routes/appointment-link.ts"),

  // Plain printable doctor pages, outside the shared layout so only the document prints.
  route("doctor/schedule/print", "routes/doctor/schedule-print.tsx"),
  route("doctor/consultations/:id/print", "routes/doctor/consultation-print.tsx"),

  // Everything else needs a signed-in user and sits in the shared layout.
  layout("routes/app-layout.tsx", [
    route("settings", "routes/settings.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("appointments/:id/calendar", "routes/appointment-calendar.ts"),
    route("cities/:countryId", "routes/cities.ts"),
    route("health", "routes/health/layout.tsx", [
      index("routes/health/index.tsx"),
      route("doctors", "routes/health/doctors.tsx"),
      route("doctors/my-appointments", "routes/health/my-appointments.tsx"),
      route("paramedical", "routes/health/paramedical.tsx"),
      route("pharmacy", "routes/health/pharmacy.tsx"),
      route("payment/:appointmentId", "routes/health/payment.tsx"),
    ]),
    ...prefix("patient", [
      route("profile", "routes/patient/profile.tsx"),
      route("profile/export", "routes/patient/export.ts"),
      route("profile/access", "routes/patient/access.tsx"),
    ]),
    route("doctor", "routes/doctor/layout.tsx", [
      index("routes/doctor/index.tsx"),
      route("dashboard", "routes/doctor/dashboard.tsx"),
      route("appointments", "routes/doctor/appointments.tsx"),
      route("consultations", "routes/doctor/consultations.tsx"),
      route("availability", "routes/doctor/availability.tsx"),
      route("queue", "routes/doctor/queue.tsx"),
      route("profile", "routes/doctor/profile.tsx"),
      route("profile/export", "routes/doctor/profile-export.ts"),
    ]),
    route("admin", "routes/admin/index.tsx"),
    route("admin/closures", "routes/admin/closures.tsx"),
    route("admin/staff", "routes/admin/staff.tsx"),
    route("reception", "routes/reception/layout.tsx", [
      index("routes/reception/day.tsx"),
      route("patients", "routes/reception/patients.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
