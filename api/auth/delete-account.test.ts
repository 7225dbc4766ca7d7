import { describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { PASSWORD, refusal, setUpApi } from "../test/harness.ts";
import { apiTokens, appointments, doctors, oneTimeCodes, patients, proposals, users } from "../db/schema.ts";
import { registerPatient, verifiedPatient } from "./test-helpers.ts";
import { loggedIn, registered } from "../../contract/auth.ts";
import { doctorPage } from "../../contract/doctor.ts";

const api = setUpApi();

const DAY = 86_400_000;
let minute = 0;
/** A distinct instant `days` from now (negative: past), off the booking slots. */
const at = (days: number) => new Date(Date.now() + days * DAY + ++minute * 61 * 60_000);

async function appointment(values: Partial<typeof appointments.$inferInsert> & { patientId: string }) {
  const [row] = await api.db
    .insert(appointments)
    .values({ type: "online", category: "direct", status: "pending", startsAt: at(10), ...values })
    .returning();
  return row;
}
const statusOf = async (id: string) =>
  (await api.db.select({ s: appointments.status }).from(appointments).where(eq(appointments.id, id)))[0].s;
const proposalStatus = async (id: string) =>
  (await api.db.select({ s: proposals.status }).from(proposals).where(eq(proposals.id, id)))[0].s;
const deleteAccount = (token?: string) => api.request("DELETE", "/auth/delete-account", { token });

describe("DELETE /auth/delete-account", () => {
  it("erases a patient's personal fields and credentials for good", async () => {
    const ref = await api.reference();
    const { user, token } = await api.createPatient({
      username: "Awa Private",
      phone: "0699887766",
      address: "Rue 12, Akwa",
      gender: "female",
      dateOfBirth: "1990-04-01",
      avatarUrl: "/avatars/awa.png",
      countryId: ref.cameroon.id,
      cityId: ref.city("Douala").id,
      profession: "Nurse",
    });
    const res = await deleteAccount(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Account deleted successfully" });

    const [row] = await api.db.select().from(users).where(eq(users.id, user.id));
    expect(row.email).toBe(`deleted-${user.id}@invalid`);
    expect(row.passwordHash).not.toMatch(/^\$argon2/);
    expect(row).toMatchObject({
      username: "",
      phone: null,
      address: null,
      gender: null,
      dateOfBirth: null,
      avatarUrl: null,
      countryId: null,
      cityId: null,
    });
    expect(row.deletedAt).toBeInstanceOf(Date);
    const [patient] = await api.db.select().from(patients).where(eq(patients.userId, user.id));
    expect(patient.profession).toBeNull();
    const serialized = JSON.stringify(row);
    for (const secret of ["Awa Private", "0699887766", "Akwa", "1990-04-01", "awa.png", user.email])
      expect(serialized).not.toContain(secret);
  });

  it("revokes every token and login fails after", async () => {
    const p = await verifiedPatient(api);
    const other = (
      await api.request("POST", "/auth/login", {
        answer: loggedIn,
        body: { email: p.email, password: p.password, role: "patient" },
      })
    ).body.token.token;
    expect((await deleteAccount(p.token)).status).toBe(200);
    expect((await api.request("GET", "/patient/me", { token: other })).status).toBe(401);
    expect((await deleteAccount(p.token)).status).toBe(401);
    const live = await api.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, p.id), isNull(apiTokens.revokedAt)));
    expect(live).toHaveLength(0);
    const login = await api.request("POST", "/auth/login", {
      body: { email: p.email, password: p.password, role: "patient" },
    });
    expect(login.status).toBe(401);
    expect(refusal(login).code).toBe("login_failed");
    // No password can match the tombstone either.
    const tomb = await api.request("POST", "/auth/login", {
      body: { email: `deleted-${p.id}@invalid`, password: "!deleted", role: "patient" },
    });
    expect([400, 401]).toContain(tomb.status);
  });

  it("lets the same e-mail register again as a new account", async () => {
    const p = await verifiedPatient(api);
    await deleteAccount(p.token);
    const again = await api.request("POST", "/auth/register", {
      answer: registered,
      body: {
        username: "Back Again",
        email: p.email.toUpperCase(),
        phone: "670 11 11 11",
        password: "Another1",
        userRole: "patient",
      },
    });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(p.id);
    const code = api.mailer.lastCodeFor(p.email);
    expect((await api.request("PUT", `/auth/verifyUser/${again.body.id}`, { body: { otpCode: code } })).status).toBe(
      200,
    );
    expect(
      (await api.request("POST", "/auth/login", { body: { email: p.email, password: "Another1", role: "patient" } }))
        .status,
    ).toBe(200);
  });

  it("cancels the patient's future active appointments and open requests, keeps the past, withdraws proposals on them", async () => {
    const { user, token } = await api.createPatient();
    const doctor = await api.createDoctor();
    const otherDoctor = await api.createDoctor();
    const ref = await api.reference();
    const futurePending = await appointment({ patientId: user.id, doctorId: doctor.user.id, status: "pending" });
    const futureConfirmed = await appointment({ patientId: user.id, doctorId: doctor.user.id, status: "confirmed" });
    const openRequest = await appointment({
      patientId: user.id,
      category: "random",
      status: "proposed",
      specialityId: ref.speciality("General practice").id,
    });
    const proposal = (
      await api.db
        .insert(proposals)
        .values({ appointmentId: openRequest.id, doctorId: otherDoctor.user.id })
        .returning()
    )[0];
    const pastCompleted = await appointment({
      patientId: user.id,
      doctorId: doctor.user.id,
      status: "completed",
      startsAt: at(-10),
    });
    const pastConfirmed = await appointment({
      patientId: user.id,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt: at(-3),
    });
    const futureCompletedNever = await appointment({
      patientId: user.id,
      doctorId: doctor.user.id,
      status: "cancelled",
    });

    expect((await deleteAccount(token)).status).toBe(200);
    expect(await statusOf(futurePending.id)).toBe("cancelled");
    expect(await statusOf(futureConfirmed.id)).toBe("cancelled");
    expect(await statusOf(openRequest.id)).toBe("cancelled");
    expect(await proposalStatus(proposal.id)).toBe("rejected");
    expect(await statusOf(pastCompleted.id)).toBe("completed");
    expect(await statusOf(pastConfirmed.id)).toBe("confirmed");
    expect(await statusOf(futureCompletedNever.id)).toBe("cancelled");
  });

  it("as a doctor: cancels future assigned appointments, withdraws pending proposals, reopens requests left without one", async () => {
    const doctor = await api.createDoctor();
    const rival = await api.createDoctor();
    const patient = await api.createPatient();
    const ref = await api.reference();
    const speciality = ref.speciality("General practice").id;
    const assigned = await appointment({ patientId: patient.user.id, doctorId: doctor.user.id, status: "confirmed" });
    const past = await appointment({
      patientId: patient.user.id,
      doctorId: doctor.user.id,
      status: "completed",
      startsAt: at(-5),
    });
    // Only this doctor proposed: the request returns to pending.
    const alone = await appointment({
      patientId: patient.user.id,
      category: "random",
      status: "proposed",
      specialityId: speciality,
    });
    const aloneProposal = (
      await api.db.insert(proposals).values({ appointmentId: alone.id, doctorId: doctor.user.id }).returning()
    )[0];
    // A rival also proposed: the request stays proposed.
    const shared = await appointment({
      patientId: patient.user.id,
      category: "random",
      status: "proposed",
      specialityId: speciality,
    });
    const mine = (
      await api.db.insert(proposals).values({ appointmentId: shared.id, doctorId: doctor.user.id }).returning()
    )[0];
    const theirs = (
      await api.db.insert(proposals).values({ appointmentId: shared.id, doctorId: rival.user.id }).returning()
    )[0];
    // An accepted proposal is history, not withdrawn.
    const acceptedRequest = await appointment({
      patientId: patient.user.id,
      category: "random",
      status: "completed",
      doctorId: doctor.user.id,
      startsAt: at(-2),
    });
    const accepted = (
      await api.db
        .insert(proposals)
        .values({ appointmentId: acceptedRequest.id, doctorId: doctor.user.id, status: "accepted" })
        .returning()
    )[0];

    expect((await deleteAccount(doctor.token)).status).toBe(200);
    expect(await statusOf(assigned.id)).toBe("cancelled");
    expect(await statusOf(past.id)).toBe("completed");
    expect(await proposalStatus(aloneProposal.id)).toBe("rejected");
    expect(await statusOf(alone.id)).toBe("pending");
    expect(await proposalStatus(mine.id)).toBe("rejected");
    expect(await proposalStatus(theirs.id)).toBe("pending");
    expect(await statusOf(shared.id)).toBe("proposed");
    expect(await proposalStatus(accepted.id)).toBe("accepted");

    const [row] = await api.db.select().from(doctors).where(eq(doctors.userId, doctor.user.id));
    expect(row).toMatchObject({ contact: null, biography: null, serialNumber: "" });
    // The deleted doctor no longer appears in search.
    const search = await api.request("GET", "/doctor?limit=50", { answer: doctorPage, token: patient.token });
    const ids = search.body.doctors.map((d) => d.id);
    expect(ids).not.toContain(doctor.user.id);
  });

  it("frees the slot: another patient can take the cancelled appointment's time", async () => {
    const doctor = await api.createDoctor();
    const leaving = await api.createPatient();
    const staying = await api.createPatient();
    const slot = at(12);
    await appointment({ patientId: leaving.user.id, doctorId: doctor.user.id, status: "confirmed", startsAt: slot });
    await deleteAccount(leaving.token);
    const taken = await appointment({
      patientId: staying.user.id,
      doctorId: doctor.user.id,
      status: "pending",
      startsAt: slot,
    });
    expect(taken.status).toBe("pending");
  });

  it("removes pending codes", async () => {
    const r = await registerPatient(api);
    await api.db.update(users).set({ otpVerified: true }).where(eq(users.id, r.id));
    const token = (
      await api.request("POST", "/auth/login", {
        answer: loggedIn,
        body: { email: r.email, password: r.password, role: "patient" },
      })
    ).body.token.token;
    await api.request("POST", "/auth/forgot-password", { body: { email: r.email } });
    await deleteAccount(token);
    expect(await api.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, r.id))).toHaveLength(0);
  });

  it("works for an admin too, and needs a token", async () => {
    const admin = await api.createAdmin();
    expect((await deleteAccount(admin.token)).status).toBe(200);
    expect((await deleteAccount()).status).toBe(401);
    const login = await api.request("POST", "/auth/login", {
      body: { email: admin.user.email, password: PASSWORD, role: "patient" },
    });
    expect(login.status).toBe(401);
  });
});
