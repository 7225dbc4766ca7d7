// The front desk's requests as the API's edge reads them (contract/reception.ts, contract/admin.ts):
// the fields' codes, a phone however written read as one E.164 number, and the answers' shapes.
import { describe, expect, it } from "vitest";
import {
  type StaffList,
  type StaffMember,
  type StaffRequest,
  type StaffUpdate,
  createdStaff,
  staffBody,
  staffList,
  staffUpdateBody,
} from "./admin.ts";
import type { DayState } from "./constants.ts";
import { check } from "./fields.ts";
import {
  type DayAppointment,
  type DaySheet,
  type DeskBooking,
  type DeskChange,
  type DeskPatient,
  type DeskPatientList,
  type DoctorQueue,
  type PhoneTaken,
  type DeskPatientRequest,
  type DeskPatientSearch,
  type WalkIn,
  daySheet,
  daySheetQuery,
  deskBookingBody,
  deskPatient,
  deskPatientBody,
  deskPatientList,
  deskPatientSearchQuery,
  deskRescheduleBody,
  deskStatusBody,
  doctorQueue,
  phoneTaken,
  walkInBody,
} from "./reception.ts";

const refusal = (schema: Parameters<typeof check>[0], input: unknown) => {
  const result = check(schema, input);
  return result.ok ? "accepted" : result.code;
};
const accepted = <T>(result: { ok: true; data: T } | { ok: false; code: string }): T => {
  if (!result.ok) throw new Error(`refused: ${result.code}`);
  return result.data;
};
const doctorId = "5f0c4b52-3b7e-4a57-9d7e-2f1f6a1d9c11";
const patientId = "0b6f2d7e-1c55-4a8e-8f0d-3a9b7c6d5e41";

describe("a patient record made at the desk", () => {
  it("reads one number however it is written, in Cameroon's numbering unless it says +country", () => {
    const ways = ["+237 670 000 001", "670000001", "6.70.00.00.01", "00237 670-000-001"];
    const phones = ways.map((phone) => {
      const body: DeskPatientRequest = { username: "Awa Ngono", phone };
      return accepted(check(deskPatientBody, body)).phone;
    });
    expect(new Set(phones)).toEqual(new Set(["+237670000001"]));
    const found = ways.map((phone) => {
      const query: DeskPatientSearch = { phone };
      return accepted(check(deskPatientSearchQuery, query)).phone;
    });
    expect(found).toEqual(phones);
  });

  it("needs a name and a valid phone; e-mail, birth date and language are optional and checked", () => {
    expect(refusal(deskPatientBody, { phone: "670000001" })).toBe("invalid_username");
    expect(refusal(deskPatientBody, { username: "Awa Ngono" })).toBe("invalid_phone");
    expect(refusal(deskPatientBody, { username: "Awa Ngono", phone: "12" })).toBe("invalid_phone");
    const base = { username: "Awa Ngono", phone: "670000001" };
    expect(refusal(deskPatientBody, { ...base, email: "not an address" })).toBe("invalid_email");
    expect(refusal(deskPatientBody, { ...base, dateOfBirth: "1990-02-30" })).toBe("invalid_date_of_birth");
    expect(refusal(deskPatientBody, { ...base, language: "de" })).toBe("invalid_language");
    expect(refusal(deskPatientBody, { ...base, smsConsent: "perhaps" })).toBe("invalid_consent");
    expect(refusal(deskPatientBody, { ...base, smsConsentMethod: "telepathy" })).toBe("invalid_consent");
    expect(accepted(check(deskPatientBody, { ...base, email: "", dateOfBirth: "", smsConsent: "on" }))).toEqual({
      username: "Awa Ngono",
      phone: "+237670000001",
      language: "fr",
      smsConsent: true,
      smsConsentMethod: "in_person",
    });
  });

  it("is searched by a phone or by at least two letters of a name", () => {
    expect(refusal(deskPatientSearchQuery, {})).toBe("invalid");
    expect(refusal(deskPatientSearchQuery, { q: " " })).toBe("invalid");
    expect(refusal(deskPatientSearchQuery, { q: "A" })).toBe("invalid");
    expect(accepted(check(deskPatientSearchQuery, { q: " Awa " }))).toEqual({ q: "Awa" });
  });
});

describe("booking on behalf, the day and walk-ins", () => {
  it("takes a patient, a doctor, a date and a time, in person unless said otherwise", () => {
    const booking: DeskBooking = { patientId, doctorId, date: "2027-01-05", time: "09:00" };
    expect(accepted(check(deskBookingBody, booking))).toEqual({ ...booking, type: "in-person" });
    expect(refusal(deskBookingBody, { ...booking, patientId: "12" })).toBe("invalid_patient");
    expect(refusal(deskBookingBody, { ...booking, doctorId: undefined })).toBe("doctor_required");
    expect(refusal(deskBookingBody, { ...booking, date: "2027-13-01" })).toBe("invalid_date");
    expect(refusal(deskBookingBody, { ...booking, time: "" })).toBe("invalid_slot");
    expect(refusal(deskBookingBody, { ...booking, type: "video" })).toBe("invalid_type");
  });

  it("changes an appointment by a new slot, or cancels it or marks it missed, nothing else", () => {
    const changes: DeskChange[] = [
      { date: "2027-01-05", time: "10:00" },
      { status: "cancelled" },
      { status: "missed" },
    ];
    expect(refusal(deskRescheduleBody, changes[0])).toBe("accepted");
    expect(refusal(deskStatusBody, changes[1])).toBe("accepted");
    expect(refusal(deskStatusBody, changes[2])).toBe("accepted");
    expect(refusal(deskStatusBody, { status: "completed" })).toBe("invalid_status");
    expect(refusal(deskStatusBody, { status: "confirmed" })).toBe("invalid_status");
  });

  it("reads the day sheet of today unless a real date is asked, and a walk-in's patient and doctor", () => {
    expect(accepted(check(daySheetQuery, { date: "" }))).toEqual({});
    expect(refusal(daySheetQuery, { date: "tomorrow" })).toBe("invalid_date");
    const walkIn: WalkIn = { patientId, doctorId };
    expect(accepted(check(walkInBody, walkIn))).toEqual({ ...walkIn, type: "in-person" });
    expect(refusal(walkInBody, { doctorId })).toBe("invalid_patient");
  });

  it("answers the day and the queue without a reason, a diagnosis or a note", () => {
    const state: DayState = "arrived";
    const row: DayAppointment = {
      id: "a1",
      date: "2027-01-05",
      time: "2027-01-05T09:00:00+01:00",
      endTime: "2027-01-05T09:20:00+01:00",
      type: "in-person",
      status: "confirmed",
      state,
      walkIn: false,
      arrivedAt: "2027-01-05T07:55:00.000Z",
      startedAt: null,
      Doctor: { id: doctorId, username: "Dr Ebai" },
      Patient: { id: patientId, username: "Awa Ngono", phone: "+237670000001" },
    };
    const parsed: DaySheet = daySheet.parse({
      date: "2027-01-05",
      doctors: [row.Doctor],
      appointments: [{ ...row, details: { reason: "Pain" } }],
    });
    expect(parsed.appointments[0]).toEqual(row);
    expect(parsed.doctors).toEqual([row.Doctor]);
    const queue: DoctorQueue = doctorQueue.parse({ queue: [{ ...row, dueAt: row.time, waitedMinutes: 5 }] });
    expect(queue.queue).toHaveLength(1);
    expect(() =>
      daySheet.parse({ date: "2027-01-05", doctors: [], appointments: [{ ...row, state: "waiting" }] }),
    ).toThrow();
    expect(() => daySheet.parse({ date: "2027-01-05", appointments: [] })).toThrow();
  });

  it("says which patients already have a phone", () => {
    const answer = {
      message: "This phone is already a patient's",
      code: "phone_taken",
      patients: [{ id: patientId, username: "Awa Ngono" }],
    };
    const taken: PhoneTaken = phoneTaken.parse(answer);
    expect(taken).toEqual(answer);
    expect(() => phoneTaken.parse({ ...answer, code: "email_taken" })).toThrow();
  });

  it("answers a record with who made it and who took the consent, never a password or a code", () => {
    const record: DeskPatient = {
      id: patientId,
      username: "Awa Ngono",
      phone: "+237670000001",
      email: null,
      dateOfBirth: null,
      language: "fr",
      online: false,
      smsConsent: { at: "2027-01-05T08:00:00.000Z", by: { id: doctorId, username: "Reception" }, method: "by_phone" },
      createdBy: { id: doctorId, username: "Reception" },
      createdAt: "2027-01-05T08:00:00.000Z",
      claimLocked: false,
    };
    expect(deskPatient.parse({ ...record, password: "secret", resetCode: "123456" })).toEqual(record);
    expect(() => deskPatient.parse({ ...record, claimLocked: undefined })).toThrow();
    const list: DeskPatientList = deskPatientList.parse({ patients: [record] });
    expect(list.patients).toEqual([record]);
    expect(() => deskPatientList.parse({ patients: Array.from({ length: 21 }, () => record) })).toThrow();
  });
});

describe("the admin's staff", () => {
  it("makes a receptionist with a name, an e-mail and the doctors served, repeats counted once", () => {
    const body: StaffRequest = {
      username: "Reception",
      email: "desk@example.com",
      doctorIds: [doctorId, doctorId.toUpperCase()],
    };
    expect(accepted(check(staffBody, body)).doctorIds).toEqual([doctorId]);
    expect(refusal(staffBody, { ...body, email: "nope" })).toBe("invalid_email");
    expect(refusal(staffBody, { ...body, doctorIds: ["12"] })).toBe("invalid_doctor");
    expect(refusal(staffBody, { ...body, doctorIds: Array.from({ length: 51 }, () => doctorId) })).toBe(
      "invalid_doctor",
    );
    const update: StaffUpdate = { doctorIds: [] };
    expect(accepted(check(staffUpdateBody, update))).toEqual({ doctorIds: [] });
    expect(createdStaff.parse({ id: patientId })).toEqual({ id: patientId });
    const member: StaffMember = {
      id: patientId,
      username: "Reception",
      email: "desk@example.com",
      createdAt: "2027-01-05T08:00:00.000Z",
      deactivatedAt: null,
      invitationAccepted: false,
      doctors: [{ id: doctorId, username: "Dr Ebai" }],
    };
    const list: StaffList = staffList.parse({ staff: [member], total: 1, page: 1, limit: 20, totalPages: 1 });
    expect(list.staff).toEqual([member]);
  });
});
