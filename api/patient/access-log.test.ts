import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { setUpApi } from "../test/harness.ts";
import { auditEvents, users } from "../db/schema.ts";
import { insertAppointment } from "../appointment/test-factories.ts";
import { accessLogPage, patientExport } from "../../contract/patient.ts";
import { consultation } from "../../contract/consultation.ts";

describe("who saw my data: GET /patient/access-log and the export", () => {
  const api = setUpApi();

  const log = (token: string, query = "") =>
    api.request("GET", `/patient/access-log${query}`, { answer: accessLogPage, token });

  it("lists a doctor's reads of the patient's appointment and consultation record, with who, their role, what and when", async () => {
    const patient = await api.createPatient({ username: "Chantal Log" });
    const doctor = await api.createDoctor({ username: "Dr Reader", specialities: ["Neurology"] });
    const appointment = await insertAppointment(api.db, {
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
    });
    expect((await log(patient.token)).body).toEqual({ items: [], total: 0, page: 1, limit: 20, totalPages: 0 });

    expect(
      (await api.request("GET", `/doctor/doctor_appointments/${appointment.id}`, { token: doctor.token })).status,
    ).toBe(200);
    const record = await api.request("POST", "/consultation", {
      answer: consultation,
      token: doctor.token,
      body: { patientId: patient.user.id, type: "consultation", diagnosis: "Migraine", appointmentId: appointment.id },
    });
    expect(record.status).toBe(201);
    expect((await api.request("GET", `/consultation/${record.body.id}`, { token: doctor.token })).status).toBe(200);
    // The patient's own reads are no one else's: never listed.
    expect((await api.request("GET", `/appointment/${appointment.id}`, { token: patient.token })).status).toBe(200);

    const res = await log(patient.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, page: 1, totalPages: 1 });
    const actor = { id: doctor.user.id, username: "Dr Reader", role: "doctor" };
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        time: expect.stringMatching(/^\d{2}:\d{2}$/),
        action: "read",
        entity: "consultation",
        entityId: record.body.id,
        Actor: actor,
      },
      expect.objectContaining({ action: "create", entity: "consultation", entityId: record.body.id, Actor: actor }),
      expect.objectContaining({ action: "read", entity: "appointment", entityId: appointment.id, Actor: actor }),
    ]);
    // 'when' is the event's instant, and its day and time in the clinic zone (UTC+1).
    const at = new Date(res.body.items[0].at);
    expect(res.body.items[0].time).toBe(new Date(at.getTime() + 3_600_000).toISOString().slice(11, 16));
  });

  it("names an admin's reads with their role, and a deleted doctor as 'Deleted user'", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Neurology"] });
    const admin = await api.createAdmin();
    const appointment = await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    await api.request("GET", `/doctor/doctor_appointments/${appointment.id}`, { token: doctor.token });
    expect((await api.request("GET", `/appointment/${appointment.id}`, { token: admin.token })).status).toBe(200);
    await api.db.update(users).set({ deletedAt: new Date(), username: "erased" }).where(eq(users.id, doctor.user.id));

    const items = (await log(patient.token)).body.items;
    expect(items.map((i: { Actor: unknown }) => i.Actor)).toEqual([
      { id: admin.user.id, username: "Admin", role: "admin" },
      { id: doctor.user.id, username: "Deleted user", role: "doctor" },
    ]);
  });

  it("pages newest first, and refuses hostile page numbers", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Neurology"] });
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 8, minutes));
    await api.db.insert(auditEvents).values(
      Array.from({ length: 25 }, (_, i) => ({
        actorId: doctor.user.id,
        subjectUserId: patient.user.id,
        action: "read",
        entity: "appointment_list",
        at: at(i),
      })),
    );
    const first = await log(patient.token);
    expect(first.body).toMatchObject({ total: 25, page: 1, limit: 20, totalPages: 2 });
    expect(first.body.items[0]).toMatchObject({ at: at(24).toISOString(), date: "2026-11-20", time: "09:24" });
    const second = await log(patient.token, "?page=2");
    expect(second.body.items).toHaveLength(5);
    expect(second.body.items.at(-1)!.at).toBe(at(0).toISOString());
    expect((await log(patient.token, "?page=7")).body).toMatchObject({ items: [], total: 25 });
    expect((await log(patient.token, "?limit=1000")).body.limit).toBe(100);
    for (const query of [
      "?page=0",
      "?page=-2",
      "?page=x",
      "?page=2.5",
      "?page=1e400",
      "?page=99999999999999999999",
      "?limit=0",
      "?page=1&page=2",
    ]) {
      expect((await log(patient.token, query)).status, query).toBe(400);
    }
  });

  it("is the patient's own: another patient sees only theirs; a doctor, an admin and no session are refused", async () => {
    const patient = await api.createPatient();
    const other = await api.createPatient();
    const doctor = await api.createDoctor({ specialities: ["Neurology"] });
    const appointment = await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    await api.request("GET", `/doctor/doctor_appointments/${appointment.id}`, { token: doctor.token });
    expect((await log(patient.token)).body.total).toBe(1);
    // No id in the path or query reaches someone else's list.
    expect((await log(other.token, `?patientId=${patient.user.id}&subjectUserId=${patient.user.id}`)).body.total).toBe(
      0,
    );
    expect((await log(doctor.token)).status).toBe(403);
    expect((await log((await api.createAdmin()).token)).status).toBe(403);
    expect((await api.request("GET", "/patient/access-log")).status).toBe(401);
    expect((await log("forged-token")).status).toBe(401);
  });

  it("is in the data download", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor({ username: "Dr Export Reader", specialities: ["Neurology"] });
    const appointment = await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    await api.request("GET", `/doctor/doctor_appointments/${appointment.id}`, { token: doctor.token });
    const exported = await api.request("GET", "/patient/export", { answer: patientExport, token: patient.token });
    expect(exported.status).toBe(200);
    expect(exported.body.accessLog).toEqual([
      expect.objectContaining({
        action: "read",
        entity: "appointment",
        entityId: appointment.id,
        Actor: { id: doctor.user.id, username: "Dr Export Reader", role: "doctor" },
      }),
    ]);
  });
});
