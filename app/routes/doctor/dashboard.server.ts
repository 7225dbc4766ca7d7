// GET /doctor/dashboard: the four counters and today's appointments.
import type { DoctorAppointment as Appointment } from "../../../contract/appointment.ts";
import type { Upstream } from "../../upstream.server.ts";

export interface Dashboard {
  todayAppointments: number;
  upcomingAppointments: number;
  totalPatients: number;
  completedToday: number;
  todaySchedule: Appointment[];
}

export const loadDashboard = (api: Upstream) => api.get<Dashboard>("/doctor/dashboard");
