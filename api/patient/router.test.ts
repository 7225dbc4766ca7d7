import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refusal, setUpApi, type TestPatient, type TestReference } from "../test/harness.ts";
import { cities, countries, notifications } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "../appointment/test-factories.ts";
import { patientExport, patientHome, patientProfile } from "../../contract/patient.ts";

describe("the patient's profile: GET/PUT /patient/me, GET /patient/export", () => {
  const api = setUpApi();
  let ref: TestReference;
  let patient: TestPatient;
  let gabonCity: number;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient({ username: "Marie Ngo", profession: "Teacher", address: "Bonapriso" });
    const [gabon] = await api.db.select().from(countries).where(eq(countries.code, "GA"));
    gabonCity = (await api.db.select().from(cities).where(eq(cities.countryId, gabon.id)))[0].id;
  });

  const me = (token = patient.token) => api.request("GET", "/patient/me", { answer: patientProfile, token });
  const update = (body: unknown, token = patient.token) =>
    api.request("PUT", "/patient/me", { answer: patientProfile, token, body });

  it("shows the profile in its documented shape", async () => {
    const res = await me();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: patient.user.id,
      username: "Marie Ngo",
      email: patient.user.email,
      phone: "0612345678",
      address: "Bonapriso",
      gender: null,
      profession: "Teacher",
      countryId: null,
      cityId: null,
      Country: null,
      City: null,
      avatarUrl: null,
      createdAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty("passwordHash");
  });

  it("updates the fields sent, trimmed, and answers the updated profile", async () => {
    const douala = ref.city("Douala");
    const res = await update({
      username: "  Marie N. ",
      phone: "+237 699 123 456",
      address: " Rue 1, Akwa ",
      gender: "female",
      profession: "Nurse",
      countryId: String(ref.cameroon.id),
      cityId: douala.id,
      email: "stolen@example.test",
      role: "admin",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      username: "Marie N.",
      phone: "+237699123456",
      address: "Rue 1, Akwa",
      gender: "female",
      profession: "Nurse",
      countryId: ref.cameroon.id,
      cityId: douala.id,
      Country: { id: ref.cameroon.id, name: "Cameroon", code: "CM" },
      City: { id: douala.id, name: "Douala" },
      email: patient.user.email,
      updatedAt: expect.any(String),
    });
    expect((await me()).body.username).toBe("Marie N.");
    // Fields left out stay; empty strings clear optional fields.
    const cleared = await update({ gender: "", address: "", profession: "" });
    expect(cleared.body).toMatchObject({
      username: "Marie N.",
      gender: null,
      address: null,
      profession: null,
      cityId: douala.id,
    });
  });

  it("refuses a city outside the chosen country, and drops a kept city when the country changes", async () => {
    const mismatch = await update({ countryId: ref.cameroon.id, cityId: gabonCity });
    expect(mismatch.status).toBe(400);
    expect(refusal(mismatch).code).toBe("city_country_mismatch");
    const [gabon] = await api.db.select().from(countries).where(eq(countries.code, "GA"));
    const moved = await update({ countryId: gabon.id });
    expect(moved.body).toMatchObject({ countryId: gabon.id, cityId: null, City: null });
    expect(refusal(await update({ countryId: null, cityId: gabonCity })).code).toBe("city_country_mismatch");
    expect(refusal(await update({ countryId: 99999 })).code).toBe("invalid_country");
    expect(refusal(await update({ cityId: 99999 })).code).toBe("invalid_city");
  });

  it("reads a number without +country in the region of the profile's country, Cameroon by default", async () => {
    const [gabon] = await api.db.select().from(countries).where(eq(countries.code, "GA"));
    expect((await update({ phone: "6.99.12.34.56", countryId: null })).body.phone).toBe("+237699123456");
    expect((await update({ phone: "06 21 23 45", countryId: gabon.id })).body.phone).toBe("+24106212345");
    // The same digits are no Cameroonian number.
    const refused = await update({ phone: "06 21 23 45", countryId: ref.cameroon.id });
    expect({ status: refused.status, code: refusal(refused).code }).toEqual({ status: 400, code: "invalid_phone" });
    expect((await update({ phone: "+237 670 000 001" })).body.phone).toBe("+237670000001");
    expect((await update({ phone: "" })).body.phone).toBeNull();
  });

  it("validates each field with a code naming it", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "ab" }, "invalid_username"],
      [{ username: "   " }, "invalid_username"],
      [{ username: "x".repeat(51) }, "invalid_username"],
      [{ gender: "robot" }, "invalid_gender"],
      [{ phone: "12345" }, "invalid_phone"],
      [{ phone: "0612345678" }, "invalid_phone"],
      [{ phone: "call me maybe" }, "invalid_phone"],
      [{ address: "x".repeat(501) }, "invalid_address"],
      [{ profession: 42 }, "invalid_profession"],
      [{ countryId: "Cameroon" }, "invalid_country"],
      [{ cityId: -1 }, "invalid_city"],
    ];
    for (const [body, code] of cases) {
      const res = await update(body);
      expect({ status: res.status, code: refusal(res).code }).toEqual({ status: 400, code });
    }
    expect((await me()).body.username).toBe("Marie N.");
  });

  it("is for patients only", async () => {
    const doctor = await api.createDoctor();
    expect((await me(doctor.token)).status).toBe(403);
    expect((await update({ username: "Hacker" }, doctor.token)).status).toBe(403);
    expect((await api.request("GET", "/patient/me")).status).toBe(401);
    expect((await api.request("GET", "/patient/export", { token: doctor.token })).status).toBe(403);
  });

  it("exports the profile, every appointment and the proposals on them as JSON", async () => {
    const someone = await api.createPatient({ username: "Exporter" });
    const doctor = await api.createDoctor({ username: "Dr Export", specialities: ["Cardiology"] });
    const booked = await insertAppointment(api.db, {
      patientId: someone.user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
      price: 6000,
    });
    const request = await insertOpenRequest(api.db, {
      patientId: someone.user.id,
      specialityId: ref.speciality("Cardiology").id,
    });
    await insertProposal(api.db, request.id, doctor.user.id);
    await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    const res = await api.request("GET", "/patient/export", { answer: patientExport, token: someone.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      exportedAt: expect.any(String),
      profile: { id: someone.user.id, username: "Exporter" },
    });
    expect(res.body.appointments.map((a) => a.id).sort()).toEqual([booked.id, request.id].sort());
    const exportedRequest = res.body.appointments.find((a) => a.id === request.id);
    expect(exportedRequest).toMatchObject({
      category: "random",
      status: "proposed",
      proposals: [{ status: "pending", Doctor: { id: doctor.user.id, username: "Dr Export" } }],
    });
    const exportedBooking = res.body.appointments.find((a) => a.id === booked.id);
    expect(exportedBooking).toMatchObject({
      status: "confirmed",
      price: 6000,
      Doctor: { username: "Dr Export" },
      proposals: [],
    });
  });
});

describe("GET /patient/summary: the bell count, and the home's cards chosen in SQL", () => {
  const api = setUpApi();

  const day = 86_400_000;
  const summary = (token: string, query = "?dashboard=1") =>
    api.request("GET", `/patient/summary${query}`, { answer: patientHome, token });

  it("picks the soonest appointment to come that is neither cancelled nor completed, the three soonest confirmed, and counts all", async () => {
    const { user, token } = await api.createPatient();
    const { user: doctor } = await api.createDoctor();
    const other = await api.createPatient();
    const at = (days: number) => new Date(Date.now() + days * day);
    const add = (days: number, status: "pending" | "confirmed" | "cancelled" | "completed", patientId = user.id) =>
      insertAppointment(api.db, { patientId, doctorId: doctor.id, status, startsAt: at(days) });
    await add(-3, "confirmed"); // past: never shown
    await add(1, "cancelled");
    await add(2, "completed");
    const soonest = await add(3, "pending");
    const c1 = await add(4, "confirmed");
    const c2 = await add(6, "confirmed");
    const c3 = await add(8, "confirmed");
    await add(10, "confirmed"); // a fourth confirmed: not shown
    await add(0.5, "confirmed", other.user.id); // someone else's
    // More than the list page size, so a page of the list would not hold them all.
    for (let i = 0; i < 25; i++) await add(30 + i, "cancelled");

    const res = await summary(token);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
    expect(res.body.dashboard!.upcoming!.id).toBe(soonest.id);
    expect(res.body.dashboard!.confirmed.map((a: { id: string }) => a.id)).toEqual([c1.id, c2.id, c3.id]);
    expect(res.body.dashboard!.total).toBe(33);
    // Confirmed and still to come: four (the past one and someone else's are not counted).
    expect(res.body.dashboard!.confirmedAhead).toBe(4);
    expect(res.body.dashboard!.confirmed[0]).toMatchObject({ status: "confirmed", Doctor: { id: doctor.id } });
  });

  it("answers the bell count alone without ?dashboard=1, and an empty home for a new patient", async () => {
    const { token } = await api.createPatient();
    expect((await summary(token, "")).body).toEqual({ count: 0 });
    expect((await summary(token)).body).toEqual({
      count: 0,
      dashboard: { upcoming: null, confirmed: [], confirmedAhead: 0, total: 0 },
    });
  });

  it("counts the patient's own unseen notices beside the cards, as without them", async () => {
    const { user, token } = await api.createPatient();
    const other = await api.createPatient();
    const { user: doctor } = await api.createDoctor();
    const mine = await insertAppointment(api.db, {
      patientId: user.id,
      doctorId: doctor.id,
      status: "confirmed",
      startsAt: new Date(Date.now() + 2 * day),
    });
    const theirs = await insertAppointment(api.db, {
      patientId: other.user.id,
      doctorId: doctor.id,
      status: "confirmed",
    });
    await api.db.insert(notifications).values([
      { userId: user.id, appointmentId: mine.id, kind: "appointment_confirmed" },
      { userId: user.id, appointmentId: mine.id, kind: "appointment_confirmed" },
      { userId: user.id, appointmentId: mine.id, kind: "appointment_confirmed", seenAt: new Date() },
      { userId: other.user.id, appointmentId: theirs.id, kind: "appointment_confirmed" },
    ]);
    const res = await summary(token);
    expect(res.body.count).toBe(2);
    expect((await summary(token, "")).body).toEqual({ count: 2 });
    expect(res.body.dashboard).toMatchObject({
      upcoming: { id: mine.id },
      confirmed: [{ id: mine.id }],
      confirmedAhead: 1,
      total: 1,
    });
    // With the bell's page asked for as well, its list and its count (that page marked seen).
    const both = await summary(token, "?dashboard=1&notifications=1");
    expect(both.body.notifications!.items).toHaveLength(3);
    expect(both.body.count).toBe(0);
    expect(both.body.dashboard!.total).toBe(1);
  });

  it("is for patients only", async () => {
    const doctor = await api.createDoctor();
    expect((await summary(doctor.token)).status).toBe(403);
    expect((await api.request("GET", "/patient/summary")).status).toBe(401);
  });
});
