import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { startApi, type TestApi } from "./test/harness.ts";
import { appointments, cities, countries, doctorSpecialities, doctors, specialities, users } from "./db/schema.ts";
import { DEMO_DIRECTORY, DEMO_PASSWORD, DEMO_PAST_CONFIRMED, seed, seedDemo } from "./seed.ts";
import { doctorAppointmentPage, patientAppointmentPage } from "../contract/appointment.ts";
import { loggedIn } from "../contract/auth.ts";
import { doctorPage } from "../contract/doctor.ts";
import { BOOKING_LIMIT_DEFAULTS } from "../config.ts";

// Each describe has a database of its own: the one without the demo never sees it, and the tests
// of the demo only read it, except the last one, which changes its own copy. So no test depends
// on another having run, or on their order.
let api: TestApi;

const counts = async () => {
  const n = async (
    table:
      | typeof users
      | typeof doctors
      | typeof countries
      | typeof cities
      | typeof specialities
      | typeof doctorSpecialities
      | typeof appointments,
  ) => (await api.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  return {
    users: await n(users),
    doctors: await n(doctors),
    countries: await n(countries),
    cities: await n(cities),
    specialities: await n(specialities),
    doctorSpecialities: await n(doctorSpecialities),
    appointments: await n(appointments),
  };
};
const login = (email: string, role: string) =>
  api.request("POST", "/auth/login", { answer: loggedIn, body: { email, password: DEMO_PASSWORD, role } });

/** A database of its own for the tests of one describe, seeded with `demo` or not. */
function ownDatabase(demo: boolean) {
  let own: TestApi;
  beforeAll(async () => {
    own = await startApi();
    await seed(own.db, { demo });
    api = own;
  });
  // The describes run one after the other: each test reads the database of its own describe.
  beforeEach(() => {
    api = own;
  });
  afterAll(() => own.close());
}

describe("seed without demo", () => {
  ownDatabase(false);

  it("gives reference data only", async () => {
    await seed(api.db, { demo: false });
    const c = await counts();
    expect(c.users).toBe(0);
    expect(c.countries).toBeGreaterThan(0);
    expect(c.specialities).toBeGreaterThan(0);
  });
});

describe("seed at the start of several instances at once", () => {
  let own: TestApi;
  beforeAll(async () => {
    own = await startApi();
  });
  afterAll(() => own.close());

  it("gives every instance the same demo data and none fails (web workers on one PostgreSQL)", async () => {
    // Each starting instance seeds; the demo's past appointments were checked, then inserted, so a
    // second instance in between inserted them again and died on the slot's unique index.
    await Promise.all([seed(own.db, { demo: true }), seed(own.db, { demo: true }), seed(own.db, { demo: true })]);
    const [{ n }] = await own.db.select({ n: sql<number>`count(*)::int` }).from(appointments);
    expect(n).toBe(DEMO_PAST_CONFIRMED);
    const [{ users: people }] = await own.db.select({ users: sql<number>`count(*)::int` }).from(users);
    expect(people).toBe(5 + DEMO_DIRECTORY.length);
  });
});

describe("seed with demo", () => {
  ownDatabase(true);

  it("is idempotent (run again, counts stable)", async () => {
    const first = await counts();
    await seedDemo(api.db);
    await seed(api.db, { demo: true });
    expect(await counts()).toEqual(first);
    expect(first.users).toBe(5 + DEMO_DIRECTORY.length);
    expect(first.appointments).toBe(DEMO_PAST_CONFIRMED);
    expect(DEMO_DIRECTORY.length).toBeGreaterThanOrEqual(30);
  });

  it("holds no patient above the booking limits (docs/product.md, Booking limits)", async () => {
    const held = await api.db
      .select({
        patientId: appointments.patientId,
        doctorId: appointments.doctorId,
        n: sql<number>`count(*)::int`,
        total: sql<number>`(sum(count(*)) over (partition by ${appointments.patientId}))::int`,
      })
      .from(appointments)
      .where(
        sql`${appointments.doctorId} is not null and ${appointments.status} in ('pending', 'confirmed') and ${appointments.startsAt} > now()`,
      )
      .groupBy(appointments.patientId, appointments.doctorId);
    expect(held.filter((h) => h.n > BOOKING_LIMIT_DEFAULTS.perDoctor)).toEqual([]);
    expect(held.filter((h) => h.total > BOOKING_LIMIT_DEFAULTS.total)).toEqual([]);
  });

  it("the demo accounts log in with Demo1234!", async () => {
    const patient = await login("patient@example.com", "patient");
    expect(patient.status).toBe(200);
    expect(patient.body.data).toMatchObject({ username: "Demo Patient", userRole: "patient", otpVerified: true });
    const doctor = await login("doctor@example.com", "doctor");
    expect(doctor.status).toBe(200);
    expect(doctor.body.data).toMatchObject({
      username: "Demo Doctor",
      Country: { name: "Cameroon" },
      City: { name: "Douala" },
    });
    const pending = await login("pending.doctor@example.com", "doctor");
    expect(pending.status).toBe(200);
    const admin = await login("admin@example.com", "patient");
    expect(admin.status).toBe(200);
    expect(admin.body.data.userRole).toBe("admin");
    // The front desk of the demo doctor, whose patient it finds by name.
    const reception = await login("reception@example.com", "receptionist");
    expect(reception.status).toBe(200);
    expect(reception.body.data.userRole).toBe("receptionist");
    const found = await api.request("GET", "/reception/patients?q=Demo", { token: reception.body.token.token });
    expect((found.body as { patients: { username: string }[] }).patients.map((p) => p.username)).toEqual([
      "Demo Patient",
    ]);
    const directory = await login(DEMO_DIRECTORY[0].email, "doctor");
    expect(directory.status).toBe(200);
  });

  it("the demo doctor is verified in General practice at Hôpital Laquintinie since 2012; the pending one awaits verification", async () => {
    const demo = await api.db.query.users.findFirst({
      where: eq(users.email, "doctor@example.com"),
      with: { doctor: { with: { specialities: { with: { speciality: true } } } } },
    });
    expect(demo!.doctor).toMatchObject({
      verification: "verified",
      startYear: 2012,
      dutyHospital: "Hôpital Laquintinie",
    });
    expect(demo!.doctor!.specialities.map((s) => s.speciality.name)).toEqual(["General practice"]);
    const pending = await api.db.query.users.findFirst({
      where: eq(users.email, "pending.doctor@example.com"),
      with: { doctor: true },
    });
    expect(pending!.doctor!.verification).toBe("pending");
  });

  it("the directory spreads verified doctors over specialities and cities, with example.com addresses", async () => {
    const rows = await api.db
      .select({
        email: users.email,
        cityId: users.cityId,
        startYear: doctors.startYear,
        verification: doctors.verification,
        biography: doctors.biography,
      })
      .from(doctors)
      .innerJoin(users, eq(users.id, doctors.userId))
      .where(sql`${users.email} like 'dr.%'`);
    expect(rows).toHaveLength(DEMO_DIRECTORY.length);
    expect(
      rows.every(
        (r) => r.verification === "verified" && /^dr\.[a-z.]+@example\.com$/.test(r.email ?? "") && r.biography,
      ),
    ).toBe(true);
    expect(new Set(rows.map((r) => r.cityId)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(rows.map((r) => r.startYear)).size).toBeGreaterThanOrEqual(10);
    const used = await api.db.selectDistinct({ id: doctorSpecialities.specialityId }).from(doctorSpecialities);
    expect(used.length).toBe((await api.db.select().from(specialities)).length);
    expect(new Set(DEMO_DIRECTORY.map((d) => d.email)).size).toBe(DEMO_DIRECTORY.length);
  });

  it("the demo doctors appear in search", async () => {
    const patient = await login("patient@example.com", "patient");
    const res = await api.request("GET", "/doctor?limit=50", { answer: doctorPage, token: patient.body.token.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(DEMO_DIRECTORY.length + 1);
  });
});

describe("the demo's past appointments", () => {
  // Marking one completed changes the data: this describe has a seeded copy of its own.
  ownDatabase(true);

  it("gives the demo doctor past confirmed appointments with the demo patient, which can be marked completed", async () => {
    const doctor = (await login("doctor@example.com", "doctor")).body;
    const patient = (await login("patient@example.com", "patient")).body;
    const list = await api.request("GET", "/doctor/doctor_appointments?status=confirmed&limit=50", {
      answer: doctorAppointmentPage,
      token: doctor.token.token,
    });
    expect(list.status).toBe(200);
    const past = list.body.appointments.filter((a) => Date.parse(a.time) < Date.now());
    expect(past).toHaveLength(DEMO_PAST_CONFIRMED);
    expect(past.every((a) => a.Patient?.username === "Demo Patient")).toBe(true);
    const done = await api.request("PUT", `/appointment/${past[0].id}`, {
      token: doctor.token.token,
      body: { status: "completed" },
    });
    expect(done.status).toBe(200);
    const mine = await api.request("GET", "/appointment?status=completed", {
      answer: patientAppointmentPage,
      token: patient.token.token,
    });
    expect(mine.body.appointments.map((a: { id: string }) => a.id)).toContain(past[0].id);
  });
});
