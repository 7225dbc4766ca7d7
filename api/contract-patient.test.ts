// The API answers what contract/ says for /auth, /patient, /location and /speciality, field for
// field (each answer parses with its schema and comes out unchanged), and refuses hostile input at
// its edge: wrong types, huge strings and missing fields answer 400 {message, code} with the
// field's code, never a 500.
import { describe, expect, it } from "vitest";
import { loggedIn, notice, profileVerified, registered, sessionUser, unverified, wrongRole } from "../contract/auth.ts";
import { apiError } from "../contract/errors.ts";
import { accessLogPage, patientExport, patientHome, patientProfile, unseenNotifications } from "../contract/patient.ts";
import { cityList, countryList, specialityList } from "../contract/reference.ts";
import { doctorPayload, patientPayload } from "./auth/test-helpers.ts";
import { matches } from "./test/contract-match.ts";
import { futureDate, PASSWORD, type ApiResponse, type TestApi, setUpApi } from "./test/harness.ts";
import { appointment } from "../contract/appointment.ts";

const api = setUpApi();

describe("the accounts' and reference data's answers follow the contract", () => {
  it("registration, verification, login and its refusals, logout, password reset and deletion", async () => {
    const payload = patientPayload(api, { locale: "fr" });
    const created = await api.request("POST", "/auth/register", { answer: registered, body: payload });
    expect(created.status).toBe(201);
    matches(registered, created.body);
    const code = api.mailer.lastCodeFor(String(payload.email));
    const taken = await api.request("POST", "/auth/register", {
      body: { ...payload, email: String(payload.email).toUpperCase() },
    });
    expect(taken.status).toBe(201);
    matches(registered, taken.body);

    const email = String(payload.email);
    const early = await api.request("POST", "/auth/login", { body: { email, password: PASSWORD, role: "patient" } });
    expect(early.status).toBe(403);
    matches(unverified, early.body);
    // A second code is refused within the minute; the first one is still the one to type.
    const resent = await api.request("POST", "/auth/resendVerification", { body: { email } });
    expect(resent.status).toBe(429);
    matches(apiError, resent.body);

    const verified = await api.request("PUT", `/auth/verifyUser/${created.body.id}`, { body: { otpCode: code } });
    expect(verified.status).toBe(200);
    matches(sessionUser, verified.body);

    const asDoctor = await api.request("POST", "/auth/login", { body: { email, password: PASSWORD, role: "doctor" } });
    expect(asDoctor.status).toBe(401);
    matches(wrongRole, asDoctor.body);
    const login = await api.request("POST", "/auth/login", {
      answer: loggedIn,
      body: { email, password: PASSWORD, role: "patient" },
    });
    expect(login.status).toBe(200);
    matches(loggedIn, login.body);
    expect((await api.request("POST", "/auth/logout", { token: login.body.token.token })).status).toBe(204);

    const forgot = await api.request("POST", "/auth/forgot-password", { body: { email } });
    matches(notice, forgot.body);
    const reset = await api.request("POST", "/auth/reset-password", {
      body: { email, code: api.mailer.lastCodeFor(email), password: "Another123!" },
    });
    expect(reset.status).toBe(200);
    matches(notice, reset.body);

    const again = await api.request("POST", "/auth/login", {
      answer: loggedIn,
      body: { email, password: "Another123!", role: "patient" },
    });
    const deleted = await api.request("DELETE", "/auth/delete-account", { token: again.body.token.token });
    expect(deleted.status).toBe(200);
    matches(notice, deleted.body);
  });

  it("a doctor's registration and profile gate", async () => {
    const created = await api.request("POST", "/auth/register", { body: doctorPayload(api) });
    expect(created.status).toBe(201);
    matches(registered, created.body);
    const doctor = await api.createDoctor();
    const sent = await api.request("POST", "/auth/generateProfileOtp", {
      token: doctor.token,
      body: { email: doctor.user.email },
    });
    expect(sent.status).toBe(200);
    matches(notice, sent.body);
    const gate = await api.request("PUT", `/auth/verifyProfileOtp/${doctor.user.id}`, {
      token: doctor.token,
      body: { otpCode: api.mailer.lastCodeFor(doctor.user.email) },
    });
    expect(gate.status).toBe(200);
    matches(profileVerified, gate.body);
  });

  it("the patient's profile, its update, who saw it, the download and the summaries", async () => {
    const ref = await api.reference();
    const patient = await api.createPatient({ profession: "Teacher" });
    const doctor = await api.createDoctor({ specialities: ["Cardiology"] });
    const as = (who: { token: string }) => (method: string, path: string, body?: unknown) =>
      api.request(method, path, { token: who.token, body });

    matches(patientProfile, (await as(patient)("GET", "/patient/me")).body);
    const updated = await as(patient)("PUT", "/patient/me", {
      username: "Amina N.",
      phone: "670 000 002",
      gender: "female",
      address: "Rue 12",
      countryId: ref.cameroon.id,
      cityId: ref.city("Douala").id,
    });
    expect(updated.status).toBe(200);
    expect(matches(patientProfile, updated.body).City).toEqual({ id: ref.city("Douala").id, name: "Douala" });

    // A booking the doctor reads (an access event), and an open request with a proposal (in the download).
    const booked = await as(patient)("POST", "/appointment", {
      doctorId: doctor.user.id,
      type: "online",
      date: futureDate(12),
      time: "09:00",
    });
    expect(booked.status).toBe(201);
    expect((await as(doctor)("GET", `/appointment/${matches(appointment, booked.body).id}`)).status).toBe(200);
    const request = await as(patient)("POST", "/appointment", {
      category: "random",
      specialityId: ref.speciality("Cardiology").id,
      type: "online",
      date: futureDate(13),
      time: "10:00",
    });
    expect(
      (await as(doctor)("POST", "/appointment-proposal", { appointmentId: matches(appointment, request.body).id }))
        .status,
    ).toBe(201);

    const log = matches(accessLogPage, (await as(patient)("GET", "/patient/access-log")).body);
    expect(log.items.length).toBeGreaterThan(0);
    const download = matches(patientExport, (await as(patient)("GET", "/patient/export")).body);
    expect(download.appointments.some((a) => a.proposals.length > 0)).toBe(true);
    const home = matches(patientHome, (await as(patient)("GET", "/patient/summary?dashboard=1")).body);
    expect(home.dashboard?.upcoming).not.toBeNull();
    const bell = matches(patientHome, (await as(patient)("GET", "/patient/summary?notifications=1")).body);
    expect(bell.notifications?.items.length).toBeGreaterThan(0);
    matches(unseenNotifications, (await as(patient)("GET", "/patient/notifications")).body);
  });

  it("countries, cities and specialities", async () => {
    const ref = await api.reference();
    const countries = matches(countryList, (await api.request("GET", "/location/country")).body);
    expect(countries[0].code).toBe("CM");
    const cities = matches(cityList, (await api.request("GET", `/location/city/${ref.cameroon.id}`)).body);
    expect(cities.length).toBeGreaterThan(0);
    const specialities = matches(specialityList, (await api.request("GET", "/speciality")).body);
    expect(specialities[0].isGeneral).toBe(true);
  });
});

describe("hostile input is refused at the edge with the field's code", () => {
  const huge = "x".repeat(60_000);
  const refusal = async (res: ApiResponse) => {
    return { status: res.status, code: matches(apiError, res.body).code };
  };

  it.each<[string, (api: TestApi) => Record<string, unknown>, string]>([
    ["no role", (a) => patientPayload(a, { userRole: undefined }), "invalid_role"],
    ["an admin's role", (a) => patientPayload(a, { userRole: "admin" }), "invalid_role"],
    ["a role that is a number", (a) => patientPayload(a, { userRole: 1 }), "invalid_role"],
    // A patient may sign up with a phone alone (docs/sms.md); a doctor needs an e-mail.
    ["a doctor without an e-mail", (a) => doctorPayload(a, { email: undefined }), "invalid_email"],
    ["an e-mail that is a number", (a) => patientPayload(a, { email: 42 }), "invalid_email"],
    ["a huge e-mail", (a) => patientPayload(a, { email: `${huge}@example.com` }), "invalid_email"],
    ["a name that is a list", (a) => patientPayload(a, { username: ["Amina"] }), "invalid_username"],
    ["a huge name", (a) => patientPayload(a, { username: huge }), "invalid_username"],
    ["a phone that is an object", (a) => patientPayload(a, { phone: { number: "670000001" } }), "invalid_phone"],
    ["a huge phone", (a) => patientPayload(a, { phone: huge }), "invalid_phone"],
    ["no password", (a) => patientPayload(a, { password: undefined }), "invalid_password"],
    ["a huge password", (a) => patientPayload(a, { password: huge }), "invalid_password"],
    [
      "a doctor without a serial number",
      (a) => doctorPayload(a, { serial_number: undefined }),
      "invalid_serial_number",
    ],
    ["a doctor with a huge serial number", (a) => doctorPayload(a, { serial_number: huge }), "invalid_serial_number"],
    ["a doctor with a contact that is a number", (a) => doctorPayload(a, { contact: 670000001 }), "invalid_contact"],
  ])("registration with %s", async (_name, build, code) => {
    const before = api.mailer.messages.length;
    expect(await refusal(await api.request("POST", "/auth/register", { body: build(api) }))).toEqual({
      status: 400,
      code,
    });
    expect(api.mailer.messages.length).toBe(before);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no e-mail", { password: PASSWORD, role: "patient" }, "invalid_email"],
    ["no password", { email: "a@example.com", role: "patient" }, "invalid_password"],
    ["a password that is a number", { email: "a@example.com", password: 123456, role: "patient" }, "invalid_password"],
    ["a huge password", { email: "a@example.com", password: huge, role: "patient" }, "invalid_password"],
    ["no role", { email: "a@example.com", password: PASSWORD }, "invalid_role"],
    ["an unknown role", { email: "a@example.com", password: PASSWORD, role: "root" }, "invalid_role"],
  ])("login with %s", async (_name, body, code) => {
    expect(await refusal(await api.request("POST", "/auth/login", { body }))).toEqual({ status: 400, code });
  });

  it("codes, e-mails and new passwords of the other account routes", async () => {
    const id = crypto.randomUUID();
    const email = "someone@example.com";
    const cases: [string, string, unknown, string][] = [
      ["PUT", `/auth/verifyUser/${id}`, { otpCode: 123456 }, "invalid_code"],
      ["PUT", `/auth/verifyUser/${id}`, { otpCode: huge }, "invalid_code"],
      ["PUT", `/auth/verifyUser/${id}`, {}, "invalid_code"],
      ["POST", "/auth/resendVerification", { email: [email] }, "invalid_email"],
      ["POST", "/auth/forgot-password", { email: huge }, "invalid_email"],
      ["POST", "/auth/forgot-password", [email], "invalid_email"],
      ["POST", "/auth/reset-password", { email, password: PASSWORD }, "invalid_code"],
      ["POST", "/auth/reset-password", { email, code: "123456", password: "12345" }, "invalid_password"],
      ["POST", "/auth/reset-password", { email, code: "123456", password: { value: PASSWORD } }, "invalid_password"],
    ];
    for (const [method, path, body, code] of cases) {
      expect(
        await refusal(await api.request(method, path, { body })),
        `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`,
      ).toEqual({ status: 400, code });
    }
  });

  it("a patient's profile update, and nothing is changed", async () => {
    const patient = await api.createPatient({ username: "Kept Name" });
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 42 }, "invalid_username"],
      [{ username: huge }, "invalid_username"],
      [{ phone: 670000001 }, "invalid_phone"],
      [{ phone: huge }, "invalid_phone"],
      [{ address: huge }, "invalid_address"],
      [{ profession: { title: "Teacher" } }, "invalid_profession"],
      [{ gender: "robot" }, "invalid_gender"],
      [{ countryId: "abc" }, "invalid_country"],
      [{ countryId: -1 }, "invalid_country"],
      // Beyond what the integer column holds: refused here, not a database error.
      [{ countryId: 2 ** 40 }, "invalid_country"],
      [{ countryId: "99999999999" }, "invalid_country"],
      [{ cityId: 1.5 }, "invalid_city"],
      [{ cityId: 2 ** 40 }, "invalid_city"],
    ];
    for (const [body, code] of cases) {
      const res = await api.request("PUT", "/patient/me", {
        token: patient.token,
        body: { username: "Changed Name", ...body },
      });
      expect(await refusal(res), JSON.stringify(body).slice(0, 60)).toEqual({ status: 400, code });
    }
    expect(
      (await api.request("GET", "/patient/me", { answer: patientProfile, token: patient.token })).body.username,
    ).toBe("Kept Name");
  });

  it("the access log's paging and the cities' country", async () => {
    const patient = await api.createPatient();
    for (const query of ["page=0", "page=abc", "limit=-5", `page=${huge.slice(0, 2000)}`]) {
      const code = query.startsWith("page") ? "invalid_page" : "invalid_limit";
      expect(
        await refusal(await api.request("GET", `/patient/access-log?${query}`, { token: patient.token })),
        query.slice(0, 20),
      ).toEqual({ status: 400, code });
    }
    for (const countryId of ["abc", "0", "-1", "1.5", "99999999999", huge.slice(0, 2000)]) {
      expect(await refusal(await api.request("GET", `/location/city/${countryId}`)), countryId.slice(0, 20)).toEqual({
        status: 400,
        code: "invalid_country",
      });
    }
    expect((await api.request("GET", "/location/city/999999")).status).toBe(404);
  });
});
