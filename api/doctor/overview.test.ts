import { beforeAll, describe, expect, it } from "vitest";
import { futureDate, setUpApi, type TestDoctor, type TestPatient } from "../test/harness.ts";
import { insertAppointment } from "../appointment/test-factories.ts";
import { zonedInstant } from "../time.ts";
import { clinicDayBounds, doctorDashboard } from "./overview.ts";

describe("the doctor's dashboard", () => {
  const api = setUpApi();
  let doctor: TestDoctor;
  let other: TestDoctor;
  let alice: TestPatient;
  let bruno: TestPatient;
  let carla: TestPatient;
  // A fixed "now": 12:30 in the clinic zone on a day of its own, so the counts never depend on the clock.
  const day = futureDate(40);
  const now = zonedInstant(day, "12:30");
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    doctor = await api.createDoctor();
    other = await api.createDoctor();
    alice = await api.createPatient({ username: "Alice" });
    bruno = await api.createPatient({ username: "Bruno" });
    carla = await api.createPatient({ username: "Carla" });
    const add = async (
      name: string,
      patientId: string,
      date: string,
      time: string,
      status: "pending" | "confirmed" | "completed" | "cancelled",
      doctorId = doctor.user.id,
    ) => {
      ids[name] = (
        await insertAppointment(api.db, { patientId, doctorId, status, startsAt: zonedInstant(date, time) })
      ).id;
    };
    await add("morningDone", alice.user.id, day, "09:00", "completed");
    await add("lateMorning", bruno.user.id, day, "10:00", "confirmed");
    await add("afternoon", alice.user.id, day, "14:00", "pending");
    await add("cancelledToday", carla.user.id, day, "15:00", "cancelled");
    await add("tomorrow", bruno.user.id, futureDate(41), "09:00", "confirmed");
    await add("tomorrowCancelled", alice.user.id, futureDate(41), "10:00", "cancelled");
    await add("lastWeek", carla.user.id, futureDate(33), "09:00", "completed");
    await add("colleagues", alice.user.id, day, "11:00", "confirmed", other.user.id);
  });

  it("counts today's, upcoming and completed-today appointments and distinct patients", async () => {
    const d = await doctorDashboard(api.db, doctor.user.id, now);
    expect(d).toMatchObject({
      todayAppointments: 3, // 09:00, 10:00, 14:00 (not the cancelled 15:00)
      upcomingAppointments: 2, // today 14:00 pending and tomorrow's confirmed
      totalPatients: 3,
      completedToday: 1,
    });
    expect(d.todaySchedule.map((a) => a.id)).toEqual([ids.morningDone, ids.lateMorning, ids.afternoon]);
    expect(d.todaySchedule[0]).toMatchObject({
      date: day,
      time: `${day}T09:00:00+01:00`,
      Patient: { username: "Alice" },
    });
  });

  it("knows the clinic day, not the UTC day", () => {
    const { start, end } = clinicDayBounds(zonedInstant(day, "00:30"));
    // Africa/Douala is UTC+1: the clinic day starts at 23:00 UTC the evening before.
    expect(start.toISOString()).toBe(new Date(Date.parse(`${day}T00:00:00Z`) - 3_600_000).toISOString());
    expect(end.getTime() - start.getTime()).toBe(86_400_000);
  });

  it("answers GET /doctor/dashboard for doctors only", async () => {
    const res = await api.request("GET", "/doctor/dashboard", { token: doctor.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        todayAppointments: expect.any(Number),
        upcomingAppointments: 3,
        totalPatients: 3,
        completedToday: expect.any(Number),
        todaySchedule: expect.any(Array),
      }),
    );
    expect((await api.request("GET", "/doctor/dashboard", { token: alice.token })).status).toBe(403);
  });
});
