// The upstream API (docs/product.md, The API) as an Express app: mounted in-process at /api by server.ts,
// or run alone by api/main.ts. router -> handler -> data functions; errors become {message}.
import express from "express";
import type { ApiDeps } from "./deps.ts";
import { apiTrustFunction } from "./trust-proxy.ts";
import { errorHandler, notFound, requestGuards } from "./http.ts";
import { authRouter } from "./auth/router.ts";
import { locationRouter } from "./location/router.ts";
import { specialityRouter } from "./speciality/router.ts";
import { doctorSearchRouter } from "./doctor/search.ts";
import { doctorRouter } from "./doctor/router.ts";
import { doctorCalendarRouter } from "./doctor/calendar.ts";
import { appointmentRouter } from "./appointment/router.ts";
import { appointmentDoctorRouter } from "./appointment/doctor-actions.ts";
import { proposalPatientRouter } from "./proposal/patient.ts";
import { proposalDoctorRouter } from "./proposal/doctor.ts";
import { patientRouter } from "./patient/router.ts";
import { consultationRouter } from "./consultation/router.ts";
import { adminRouter } from "./admin/router.ts";
import { closuresRouter } from "./admin/closures.ts";
import { staffRouter } from "./admin/staff.ts";
import { receptionRouter } from "./reception/router.ts";
import { doctorQueueRouter } from "./doctor/queue.ts";
import { notificationRouter } from "./notification/router.ts";
import { settingsRouter } from "./settings/router.ts";
import { calendarRouter } from "./calendar/router.ts";

export function createApi(deps: ApiDeps) {
  const api = express();
  api.disable("x-powered-by");
  // No ETag: answers are personal and marked not to be stored (requestGuards), except the small
  // reference lists (specialities, countries, cities: public for five minutes), fetched whole again
  // after that; hashing every body cost about 2.5% of a page's CPU in the web tier's own process.
  api.set("etag", false);
  api.set("trust proxy", apiTrustFunction(deps.trustProxy));
  api.use(requestGuards());
  api.use("/auth", authRouter(deps));
  api.use("/location", locationRouter(deps));
  api.use("/speciality", specialityRouter(deps));
  api.use("/doctor", doctorSearchRouter(deps), doctorRouter(deps), doctorCalendarRouter(deps), doctorQueueRouter(deps));
  api.use("/appointment", appointmentRouter(deps), appointmentDoctorRouter(deps));
  api.use("/appointment-proposal", proposalPatientRouter(deps), proposalDoctorRouter(deps));
  api.use("/patient", patientRouter(deps));
  api.use("/consultation", consultationRouter(deps));
  api.use("/admin", staffRouter(deps), adminRouter(deps), closuresRouter(deps));
  api.use("/reception", receptionRouter(deps));
  api.use("/notification", notificationRouter(deps));
  api.use("/settings", settingsRouter(deps));
  api.use("/calendar", calendarRouter(deps));
  api.use(() => {
    throw notFound();
  });
  api.use(errorHandler);
  return api;
}
