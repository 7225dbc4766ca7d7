// GET /doctor/dashboard: the four counters and today's appointments.
import type { DoctorDashboard } from "../../../contract/doctor-profile.ts";
import type { Upstream } from "../../upstream.server.ts";

export const loadDashboard = (api: Upstream) => api.get<DoctorDashboard>("/doctor/dashboard");
