// The edge check: the API's 400 answers keep their codes now that zod schemas say them.
import { describe, expect, it } from "vitest";
import { directBookingBody, openRequestBody, patientChangeBody, proposalBody, rescheduleBody } from "./appointment.ts";
import { check, isCalendarDate, isUuid } from "./fields.ts";

const refusal = (schema: Parameters<typeof check>[0], input: unknown) => {
  const result = check(schema, input);
  return result.ok ? "accepted" : result.code;
};
const doctorId = "5f0c4b52-3b7e-4a57-9d7e-2f1f6a1d9c11";

describe("check", () => {
  it("answers a missing field with its missing code, and a wrong one with its own", () => {
    expect(refusal(directBookingBody, { doctorId, date: "2027-01-05", time: "09:00" })).toBe("type_required");
    expect(refusal(directBookingBody, { type: "", doctorId, date: "2027-01-05", time: "09:00" })).toBe("type_required");
    expect(refusal(directBookingBody, { type: "video", doctorId, date: "2027-01-05", time: "09:00" })).toBe(
      "invalid_type",
    );
    expect(refusal(openRequestBody, { category: "random", type: "online", date: "2027-01-05", time: "09:00" })).toBe(
      "speciality_required",
    );
    expect(
      refusal(openRequestBody, {
        category: "random",
        specialityId: "cardio",
        type: "online",
        date: "2027-01-05",
        time: "09:00",
      }),
    ).toBe("invalid_speciality");
    expect(refusal(rescheduleBody, { time: "09:00" })).toBe("invalid_slot");
    expect(refusal(rescheduleBody, { date: "2027-02-30", time: "09:00" })).toBe("invalid_date");
  });

  it("reports the first refused field in the order the fields are declared", () => {
    expect(refusal(directBookingBody, { type: "online", doctorId: "12", date: "nope", time: "" })).toBe(
      "doctor_required",
    );
    expect(refusal(directBookingBody, { type: "online", doctorId, date: "2027-01-05", time: "25:99" })).toBe(
      "invalid_slot",
    );
    expect(
      refusal(directBookingBody, {
        type: "online",
        doctorId,
        date: "2027-01-05",
        time: "09:00",
        details: { videoPreference: "skype" },
      }),
    ).toBe("invalid_details");
    expect(
      refusal(directBookingBody, { type: "online", doctorId, date: "2027-01-05", time: "09:00", specialityId: 0 }),
    ).toBe("invalid_speciality");
  });

  it("reads a body that is not an object as an empty one", () => {
    for (const body of [undefined, null, "text", 42, [1, 2], true]) {
      expect(refusal(directBookingBody, body), JSON.stringify(body)).toBe("type_required");
      expect(refusal(proposalBody, body), JSON.stringify(body)).toBe("appointment_required");
      expect(refusal(patientChangeBody, body), JSON.stringify(body)).toBe("invalid_status");
    }
  });

  it("gives the value with unknown keys dropped and ids as numbers", () => {
    const result = check(openRequestBody, {
      category: "random",
      specialityId: "3",
      type: "in-person",
      date: "2027-01-05",
      time: "09:00",
      city: "",
      country: 2,
      price: 0,
      status: "confirmed",
    });
    expect(result).toEqual({
      ok: true,
      data: {
        category: "random",
        specialityId: 3,
        type: "in-person",
        date: "2027-01-05",
        time: "09:00",
        city: undefined,
        cityId: undefined,
        country: 2,
        countryId: undefined,
        details: undefined,
      },
    });
  });
});

describe("the shared field tests", () => {
  it("a UUID is 8-4-4-4-12 hexadecimal digits, nothing else", () => {
    expect(isUuid(doctorId)).toBe(true);
    expect(isUuid(doctorId.toUpperCase())).toBe(true);
    for (const v of ["", "1", `${doctorId}x`, ` ${doctorId}`, doctorId.replace(/-/g, ""), 5, null])
      expect(isUuid(v), String(v)).toBe(false);
  });

  it("a calendar date is real, never rolled over", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    for (const v of ["2027-02-29", "2027-04-31", "2027-13-01", "2027-1-01", "01/02/2027", 20270101])
      expect(isCalendarDate(v), String(v)).toBe(false);
  });
});
