// The API answers what contract/ says, field for field: each answer of /appointment,
// /appointment-proposal, /doctor (the search), /consultation and /notification parses with its schema and comes out unchanged (a field the contract does
// not know would be dropped, a missing or mistyped one refused), and every refusal is {message, code}
// with a code the contract lists.
import { beforeAll, describe, expect, it } from "vitest";
import {
  appointment,
  changedAppointment,
  createdProposal,
  daySlots,
  doctorAppointment,
  doctorAppointmentPage,
  patientAppointment,
  patientAppointmentPage,
  proposalList,
  rejectedProposal,
} from "../contract/appointment.ts";
import { consultation, consultationPage } from "../contract/consultation.ts";
import { doctorPage } from "../contract/doctor.ts";
import { notificationList } from "../contract/notification.ts";
import { apiError } from "../contract/errors.ts";
import { matches } from "./test/contract-match.ts";
import { futureDate, setUpApi, type TestDoctor, type TestPatient } from "./test/harness.ts";

describe("answers follow the contract", () => {
  const api = setUpApi();
  let patient: TestPatient;
  let doctor: TestDoctor;
  let other: TestDoctor;
  let specialityId: number;

  beforeAll(async () => {
    const ref = await api.reference();
    specialityId = ref.speciality("Cardiology").id;
    patient = await api.createPatient();
    doctor = await api.createDoctor({ username: "Dr Contract", specialities: ["Cardiology"] });
    other = await api.createDoctor({ username: "Dr Other", specialities: ["Cardiology"] });
  });

  const as = (who: { token: string }) => ({
    get: (path: string) => api.request("GET", path, { token: who.token }),
    send: (method: string, path: string, body?: unknown) => api.request(method, path, { token: who.token, body }),
  });

  it("a direct booking, its lists, its day's slots, a reschedule and a cancellation", async () => {
    const date = futureDate(9);
    const booked = await as(patient).send("POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "in-person",
      date,
      time: "10:00",
      details: { reason: "Chest pain" },
    });
    expect(booked.status).toBe(201);
    const { id } = matches(appointment, booked.body);
    matches(patientAppointment, (await as(patient).get(`/appointment/${id}`)).body);
    matches(patientAppointmentPage, (await as(patient).get("/appointment?assigned=true")).body);
    matches(doctorAppointment, (await as(doctor).get(`/appointment/${id}`)).body);
    matches(doctorAppointmentPage, (await as(doctor).get("/doctor/doctor_appointments")).body);
    matches(daySlots, (await as(patient).get(`/appointment/slots?doctorId=${doctor.user.id}&date=${date}`)).body);
    const bell = matches(notificationList, (await as(doctor).get("/notification")).body);
    expect(bell.items.length).toBeGreaterThan(0);
    const moved = await as(doctor).send("PUT", `/appointment/${id}`, { date, time: "11:00" });
    expect(moved.status).toBe(200);
    matches(appointment, moved.body);
    const cancelled = await as(patient).send("PATCH", `/appointment/${id}`, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    matches(changedAppointment, cancelled.body);
  });

  it("an open request, its proposals, an acceptance and a rejection", async () => {
    const request = await as(patient).send("POST", "/appointment", {
      category: "random",
      specialityId,
      type: "online",
      date: futureDate(10),
      time: "14:00",
    });
    expect(request.status).toBe(201);
    const { id } = matches(appointment, request.body);
    matches(doctorAppointmentPage, (await as(doctor).get("/doctor/doctor_appointments?category=random")).body);
    const proposed = await as(doctor).send("POST", "/appointment-proposal", { appointmentId: id });
    expect(proposed.status).toBe(201);
    const proposal = matches(createdProposal, proposed.body);
    const second = await as(other).send("POST", "/appointment-proposal", {
      appointmentId: id,
      doctorId: other.user.id,
    });
    expect(second.status).toBe(201);
    const list = matches(proposalList, (await as(patient).get(`/appointment-proposal?appointmentId=${id}`)).body);
    expect(list).toHaveLength(2);
    const rejected = await as(patient).send(
      "PATCH",
      `/appointment-proposal/${matches(createdProposal, second.body).id}/reject`,
    );
    matches(rejectedProposal, rejected.body);
    const accepted = await as(patient).send("PATCH", `/appointment-proposal/${proposal.id}/accept`);
    expect(accepted.status).toBe(200);
    matches(changedAppointment, accepted.body);
  });

  it("the doctor search and a consultation record", async () => {
    matches(doctorPage, (await as(patient).get("/doctor?search=Dr")).body);
    matches(doctorPage, (await as(patient).get(`/doctor?id=${doctor.user.id}`)).body);
    // A record needs a patient the doctor has seen: a past confirmed appointment.
    const booked = await as(patient).send("POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "online",
      date: futureDate(11),
      time: "09:00",
    });
    await as(doctor).send("PUT", `/appointment/${matches(appointment, booked.body).id}`, { status: "confirmed" });
    const created = await as(doctor).send("POST", "/consultation", {
      patientId: patient.user.id,
      type: "follow-up",
      diagnosis: "Healing well",
      prescription: ["Rest"],
    });
    expect(created.status).toBe(201);
    const record = matches(consultation, created.body);
    matches(consultationPage, (await as(doctor).get("/consultation")).body);
    matches(consultation, (await as(patient).get(`/consultation/${record.id}`)).body);
  });

  it("every refusal is {message, code} with a listed code", async () => {
    const refusals = [
      await as(patient).send("POST", "/appointment", { type: "online" }),
      await as(patient).send("POST", "/appointment", [1, 2]),
      await as(patient).send("PATCH", "/appointment/not-a-uuid", { status: "cancelled" }),
      await as(patient).send("PATCH", `/appointment/${crypto.randomUUID()}`, { status: "confirmed" }),
      await as(doctor).send("PUT", `/appointment/${crypto.randomUUID()}`, { status: "sleeping" }),
      await as(doctor).send("POST", "/appointment-proposal", {}),
      await as(patient).get("/appointment-proposal"),
      await as(patient).get("/appointment/slots?date=2027-02-30"),
      await api.request("GET", "/appointment"),
      await as(doctor).send("POST", "/consultation", { patientId: patient.user.id, type: "surgery", diagnosis: "x" }),
      await as(doctor).send("POST", "/consultation", { patientId: patient.user.id, type: "follow-up", diagnosis: " " }),
      await as(patient).get("/doctor?city=abc"),
    ];
    for (const res of refusals) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      matches(apiError, res.body);
    }
  });
});
