// The cards of every appointment list and of one appointment's page, loaded in one statement
// (api/appointment/list.ts, cardsByIds): the other party as the card names them (a deleted account
// is 'Deleted user', without its picture or contact), the doctor's specialities, and what each
// side adds, on the patient's and the doctor's lists alike.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { setUpApi, type TestDoctor, type TestPatient } from "../test/harness.ts";
import { users } from "../db/schema.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "./test-factories.ts";

describe("the appointment cards", () => {
  const api = setUpApi();
  let patient: TestPatient;
  let gone: TestPatient;
  let twoSpecialities: TestDoctor;
  let deletedDoctor: TestDoctor;
  let ids: Record<string, string>;

  beforeAll(async () => {
    const ref = await api.reference();
    patient = await api.createPatient({ username: "Card Patient" });
    gone = await api.createPatient({ username: "Gone Patient" });
    twoSpecialities = await api.createDoctor({ username: "Dr Two", specialities: ["Dermatology", "Cardiology"] });
    deletedDoctor = await api.createDoctor({ username: "Dr Gone" });
    ids = {
      withTwo: (
        await insertAppointment(api.db, {
          patientId: patient.user.id,
          doctorId: twoSpecialities.user.id,
          specialityId: ref.speciality("Cardiology").id,
        })
      ).id,
      withGoneDoctor: (await insertAppointment(api.db, { patientId: patient.user.id, doctorId: deletedDoctor.user.id }))
        .id,
      ofGonePatient: (
        await insertAppointment(api.db, {
          patientId: gone.user.id,
          doctorId: twoSpecialities.user.id,
          status: "confirmed",
        })
      ).id,
      open: (
        await insertOpenRequest(api.db, { patientId: patient.user.id, specialityId: ref.speciality("Cardiology").id })
      ).id,
    };
    await insertProposal(api.db, ids.open, twoSpecialities.user.id);
    for (const who of [deletedDoctor.user.id, gone.user.id]) {
      await api.db
        .update(users)
        .set({ avatarUrl: "/uploads/face.png", deletedAt: new Date() })
        .where(eq(users.id, who));
    }
  });

  const byId = (body: unknown) =>
    new Map((body as { appointments: { id: string }[] }).appointments.map((a) => [a.id, a as Record<string, unknown>]));

  it("on the patient's list and page: the doctor with contact and every speciality by name, a deleted doctor as 'Deleted user' without picture or contact, an open request without a doctor but with its proposals", async () => {
    const list = await api.request("GET", "/appointment?limit=50", { token: patient.token });
    expect(list.status).toBe(200);
    const cards = byId(list.body);
    const two = {
      id: twoSpecialities.user.id,
      username: "Dr Two",
      contact: "+237 600 000 000",
      duty_hospital: "Hôpital Laquintinie",
    };
    expect(cards.get(ids.withTwo)).toMatchObject({
      Doctor: { ...two, specialities: [{ name: "Cardiology" }, { name: "Dermatology" }] },
      Patient: { id: patient.user.id, username: "Card Patient" },
      Speciality: { name: "Cardiology", nameFr: "Cardiologie" },
      proposalCount: 0,
    });
    expect(cards.get(ids.withGoneDoctor)).toMatchObject({
      Doctor: { id: deletedDoctor.user.id, username: DELETED_USER, avatarUrl: null, contact: null },
    });
    expect(cards.get(ids.open)).toMatchObject({ Doctor: null, proposalCount: 1 });

    for (const id of [ids.withTwo, ids.withGoneDoctor, ids.open]) {
      const one = await api.request("GET", `/appointment/${id}`, { token: patient.token });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(cards.get(id));
    }
  });

  it("on the doctor's list and page: a deleted patient as 'Deleted user' without picture, the doctor's own proposal on an open request", async () => {
    const list = await api.request("GET", "/doctor/doctor_appointments?limit=50", { token: twoSpecialities.token });
    expect(list.status).toBe(200);
    const cards = byId(list.body);
    expect(cards.get(ids.ofGonePatient)).toMatchObject({
      Patient: { id: gone.user.id, username: DELETED_USER, avatarUrl: null },
      myProposal: null,
      slotHeld: false,
    });
    expect(cards.get(ids.withTwo)).toMatchObject({ Patient: { username: "Card Patient" }, myProposal: null });
    const one = await api.request("GET", `/doctor/doctor_appointments/${ids.ofGonePatient}`, {
      token: twoSpecialities.token,
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(cards.get(ids.ofGonePatient));

    const open = await api.request("GET", "/doctor/doctor_appointments?category=random&limit=50", {
      token: twoSpecialities.token,
    });
    expect(open.status).toBe(200);
    expect(byId(open.body).get(ids.open)).toMatchObject({ Doctor: null, myProposal: { status: "pending" } });
  });

  it("another doctor's appointment is a 404 on the doctor's page, never its card", async () => {
    const other = await api.createDoctor({ username: "Dr Other" });
    const res = await api.request("GET", `/doctor/doctor_appointments/${ids.ofGonePatient}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain("Gone Patient");
  });
});
