// The admin's /admin, the doctor's own side of /doctor, /calendar and /settings answer what contract/
// says, field for field (as api/contract.test.ts holds the appointment wire), and their edge refuses
// hostile input (wrong types, huge strings, missing or unknown fields) with 400 and the refused
// field's code, before any data function sees it.
import { beforeAll, describe, expect, it } from "vitest";
import { adminDoctor, adminDoctorPage } from "../contract/admin.ts";
import { feedStatus, renewedFeed, videoLink } from "../contract/calendar.ts";
import {
  doctorDashboard,
  doctorExport,
  doctorHome,
  doctorPatients,
  doctorProfile,
} from "../contract/doctor-profile.ts";
import { apiError } from "../contract/errors.ts";
import { bell } from "../contract/notification.ts";
import { mailSettings } from "../contract/settings.ts";
import { matches } from "./test/contract-match.ts";
import {
  UNBOUND_BOOKINGS,
  futureDate,
  refusal,
  setUpApi,
  type TestAdmin,
  type TestDoctor,
  type TestPatient,
} from "./test/harness.ts";
import { appointment } from "../contract/appointment.ts";

describe("the admin's, the doctor's own, the calendar's and the settings' answers follow the contract", () => {
  const api = setUpApi({ bookingLimits: UNBOUND_BOOKINGS });
  let admin: TestAdmin;
  let patient: TestPatient;
  let doctor: TestDoctor;
  let cardiology: number;

  beforeAll(async () => {
    cardiology = (await api.reference()).speciality("Cardiology").id;
    admin = await api.createAdmin();
    patient = await api.createPatient();
    doctor = await api.createDoctor({ username: "Dr Contract", specialities: ["Cardiology"] });
  });

  const send = (who: { token: string }, method: string, path: string, body?: unknown) =>
    api.request(method, path, { token: who.token, body });

  it("the admin's list of registrations and both decisions", async () => {
    const first = await api.createDoctor({ verification: "pending", username: "Dr Waiting", specialities: [] });
    const second = await api.createDoctor({ verification: "pending", username: "Dr Refused", specialities: [] });
    const list = matches(adminDoctorPage, (await send(admin, "GET", "/admin/doctors")).body);
    expect(list.doctors.length).toBeGreaterThanOrEqual(2);
    const approved = await send(admin, "POST", `/admin/doctors/${first.user.id}/approve`, {
      specialityIds: [cardiology],
    });
    expect(approved.status).toBe(200);
    matches(adminDoctor, approved.body);
    const rejected = await send(admin, "POST", `/admin/doctors/${second.user.id}/reject`, {
      reason: "Unknown serial number",
    });
    expect(rejected.status).toBe(200);
    matches(adminDoctor, rejected.body);
    matches(adminDoctorPage, (await send(admin, "GET", "/admin/doctors?status=verified")).body);
  });

  it("the doctor's profile, its change, the summary, the dashboard, the patients and the data download", async () => {
    const date = futureDate(12);
    const booked = await send(patient, "POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "online",
      date,
      time: "09:00",
    });
    expect(booked.status).toBe(201);
    await send(doctor, "PUT", `/appointment/${matches(appointment, booked.body).id}`, { status: "confirmed" });
    const record = await send(doctor, "POST", "/consultation", {
      patientId: patient.user.id,
      type: "follow-up",
      diagnosis: "Healing well",
    });
    expect(record.status).toBe(201);
    // A booking the doctor has not acted on yet: an unseen notice on the bell.
    expect(
      (
        await send(patient, "POST", "/appointment", {
          doctorId: doctor.user.id,
          type: "in-person",
          date,
          time: "11:00",
        })
      ).status,
    ).toBe(201);

    matches(doctorProfile, (await send(doctor, "GET", "/doctor/doctor-info")).body);
    const changed = await send(doctor, "PUT", "/doctor/me", {
      biography: "Twenty years of cardiology",
      gender: "female",
    });
    expect(changed.status).toBe(200);
    matches(doctorProfile, changed.body);
    const summary = matches(doctorHome, (await send(doctor, "GET", "/doctor/summary")).body);
    expect(summary.count).toBeGreaterThan(0);
    const withList = matches(doctorHome, (await send(doctor, "GET", "/doctor/summary?notifications=1")).body);
    expect(withList.notifications?.items.length).toBeGreaterThan(0);
    matches(bell, (await send(doctor, "GET", "/doctor/notifications")).body);
    matches(doctorDashboard, (await send(doctor, "GET", "/doctor/dashboard")).body);
    const patients = await send(doctor, "GET", "/doctor/patients");
    expect(patients.body).toEqual([{ id: patient.user.id, username: patient.user.username }]);
    matches(doctorPatients, patients.body);
    const download = matches(doctorExport, (await send(doctor, "GET", "/doctor/export")).body);
    expect(download.appointments).toHaveLength(2);
    expect(download.consultations).toHaveLength(1);

    // A rejected doctor's summary and profile carry the admin's reason.
    const refused = await api.createDoctor({ verification: "pending", specialities: [] });
    await send(admin, "POST", `/admin/doctors/${refused.user.id}/reject`, { reason: "Serial number not found" });
    const home = await send(refused, "GET", "/doctor/summary");
    expect(home.body).toMatchObject({ verification: "rejected", rejectionReason: "Serial number not found" });
    matches(doctorHome, home.body);
    matches(doctorProfile, (await send(refused, "GET", "/doctor/doctor-info")).body);
  });

  it("an appointment's video link, and the private feed's status and renewal", async () => {
    const booked = await send(patient, "POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "online",
      date: futureDate(13),
      time: "10:00",
    });
    matches(
      videoLink,
      (await send(patient, "GET", `/calendar/appointments/${matches(appointment, booked.body).id}/video`)).body,
    );
    matches(feedStatus, (await send(patient, "GET", "/calendar/feed")).body);
    const renewed = await send(patient, "POST", "/calendar/feed");
    expect(renewed.status).toBe(201);
    matches(renewedFeed, renewed.body);
    const live = await send(patient, "GET", "/calendar/feed");
    expect(live.body).toMatchObject({ active: true });
    matches(feedStatus, live.body);
  });

  it("the mail settings, read and changed", async () => {
    matches(mailSettings, (await send(patient, "GET", "/settings")).body);
    const changed = await send(patient, "PUT", "/settings", { reminders: false });
    expect(changed.status).toBe(200);
    matches(mailSettings, changed.body);
  });

  it("refuses hostile input at the edge with 400 and the refused field's code, and changes nothing", async () => {
    const waiting = await api.createDoctor({ verification: "pending", specialities: [] });
    const huge = "x".repeat(60_000);
    const cases: [who: { token: string }, method: string, path: string, body: unknown, code: string][] = [
      [admin, "GET", "/admin/doctors?status=maybe", undefined, "invalid_status"],
      [admin, "GET", "/admin/doctors?status=pending&status=verified", undefined, "invalid_status"],
      [admin, "GET", "/admin/doctors?page=x", undefined, "invalid_page"],
      [admin, "GET", `/admin/doctors?limit=${"9".repeat(400)}`, undefined, "invalid_limit"],
      // `true` must not be read as speciality 1, nor a fraction rounded to one.
      [admin, "POST", `/admin/doctors/${waiting.user.id}/approve`, { specialityIds: [true] }, "invalid_speciality"],
      [admin, "POST", `/admin/doctors/${waiting.user.id}/approve`, { specialityIds: [1.5] }, "invalid_speciality"],
      [
        admin,
        "POST",
        `/admin/doctors/${waiting.user.id}/approve`,
        { specialityIds: "Cardiology" },
        "invalid_speciality",
      ],
      [
        admin,
        "POST",
        `/admin/doctors/${waiting.user.id}/approve`,
        { specialityIds: [{ id: cardiology }] },
        "invalid_speciality",
      ],
      [
        admin,
        "POST",
        `/admin/doctors/${waiting.user.id}/approve`,
        { specialityIds: Array.from({ length: 21 }, (_, i) => i + 1) },
        "invalid_speciality",
      ],
      [admin, "POST", `/admin/doctors/${waiting.user.id}/reject`, { reason: 42 }, "invalid_reason"],
      [admin, "POST", `/admin/doctors/${waiting.user.id}/reject`, { reason: ["why"] }, "invalid_reason"],
      [admin, "POST", `/admin/doctors/${waiting.user.id}/reject`, { reason: huge }, "invalid_reason"],
      [doctor, "GET", "/doctor/summary?notifications=abc", undefined, "invalid_page"],
      [doctor, "GET", "/doctor/summary?notifications=0", undefined, "invalid_page"],
      [doctor, "PUT", "/doctor/me", { username: 123 }, "invalid_username"],
      [doctor, "PUT", "/doctor/me", { username: huge }, "invalid_username"],
      [doctor, "PUT", "/doctor/me", { serial_number: null }, "invalid_serial_number"],
      [doctor, "PUT", "/doctor/me", { contact: ["+237 699 00 11 22"] }, "invalid_contact"],
      [doctor, "PUT", "/doctor/me", { gender: 1 }, "invalid_gender"],
      [doctor, "PUT", "/doctor/me", { duty_hospital: true }, "invalid_duty_hospital"],
      [doctor, "PUT", "/doctor/me", { biography: { text: "hi" } }, "invalid_biography"],
      [doctor, "PUT", "/doctor/me", { biography: huge }, "invalid_biography"],
      [doctor, "PUT", "/doctor/me", { countryId: "1e3" }, "invalid_country"],
      [doctor, "PUT", "/doctor/me", { cityId: -5 }, "invalid_city"],
      [doctor, "PUT", "/doctor/me", { cityId: 1.5 }, "invalid_city"],
      [patient, "PUT", "/settings", {}, "invalid"],
      [patient, "PUT", "/settings", [true], "invalid"],
      [patient, "PUT", "/settings", { language: huge }, "invalid"],
      [patient, "PUT", "/settings", { notifications: "false" }, "invalid"],
      [patient, "PUT", "/settings", { reminders: 0 }, "invalid"],
      [patient, "PUT", "/settings", { reminders: false, role: "admin" }, "invalid"],
    ];
    for (const [who, method, path, body, code] of cases) {
      const res = await send(who, method, path, body);
      const label = `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`;
      expect(res.status, label).toBe(400);
      expect(refusal(res).code, label).toBe(code);
      matches(apiError, res.body);
    }
    // Nothing of it was applied.
    const still = matches(adminDoctorPage, (await send(admin, "GET", "/admin/doctors")).body);
    expect(still.doctors.map((d) => d.id)).toContain(waiting.user.id);
    const profile = (await send(doctor, "GET", "/doctor/doctor-info")).body;
    expect(profile).toMatchObject({
      username: "Dr Contract",
      contact: "+237 600 000 000",
      duty_hospital: "Hôpital Laquintinie",
    });
    expect((await send(patient, "GET", "/settings")).body).toMatchObject({ notifications: true });
  });

  it("answers unknown and hostile path ids and feed secrets with 404, never a database error", async () => {
    for (const path of [
      "/calendar/appointments/not-a-uuid",
      "/calendar/appointments/not-a-uuid/video",
      `/calendar/appointments/${"a".repeat(5000)}`,
    ]) {
      const res = await send(patient, "GET", path);
      expect(res.status, path).toBe(404);
      matches(apiError, res.body);
    }
    for (const token of ["short", "x".repeat(5000), "../../etc/passwd"]) {
      expect((await api.request("GET", `/calendar/feed/${encodeURIComponent(token)}.ics`)).status, token).toBe(404);
    }
    for (const id of ["not-a-uuid", "'; drop table users; --"]) {
      const res = await send(admin, "POST", `/admin/doctors/${encodeURIComponent(id)}/approve`, {});
      expect(res.status, id).toBe(404);
      matches(apiError, res.body);
    }
  });
});
