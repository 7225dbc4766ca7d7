import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refusal, setUpApi, type TestDoctor, type TestPatient, type TestReference } from "../test/harness.ts";
import { auditEvents, proposals } from "../db/schema.ts";
import { insertAppointment, insertOpenRequest, insertProposal } from "./test-factories.ts";
import { zonedInstant } from "../time.ts";
import { changedAppointment, patientAppointment, patientAppointmentPage } from "../../contract/appointment.ts";

describe("the patient's appointments: GET /appointment, GET and PATCH /appointment/{id}", () => {
  const api = setUpApi();
  let ref: TestReference;
  let patient: TestPatient;
  let other: TestPatient;
  let heart: TestDoctor;
  let skin: TestDoctor;
  let ids: Record<string, string>;

  beforeAll(async () => {
    ref = await api.reference();
    patient = await api.createPatient();
    other = await api.createPatient();
    heart = await api.createDoctor({ username: "Dr Mbarga", specialities: ["Cardiology"] });
    skin = await api.createDoctor({ username: "Dr Fotso", specialities: ["Dermatology"] });
    const cardiology = ref.speciality("Cardiology").id;
    const dermatology = ref.speciality("Dermatology").id;
    const douala = ref.city("Douala");
    const at = (days: number) =>
      zonedInstant(new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10), "10:00");
    const p = patient.user.id;
    ids = {
      past: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: heart.user.id,
          specialityId: cardiology,
          status: "completed",
          startsAt: at(-30),
        })
      ).id,
      confirmed: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: heart.user.id,
          specialityId: cardiology,
          status: "confirmed",
          type: "in-person",
          cityId: douala.id,
          countryId: ref.cameroon.id,
          startsAt: at(5),
        })
      ).id,
      pending: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: skin.user.id,
          specialityId: dermatology,
          startsAt: at(6),
        })
      ).id,
      cancelled: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: skin.user.id,
          specialityId: dermatology,
          status: "cancelled",
          startsAt: at(7),
        })
      ).id,
      open: (await insertOpenRequest(api.db, { patientId: p, specialityId: dermatology, startsAt: at(8) })).id,
      proposed: (await insertOpenRequest(api.db, { patientId: p, specialityId: cardiology, startsAt: at(9) })).id,
      othersPending: (
        await insertAppointment(api.db, {
          patientId: other.user.id,
          doctorId: heart.user.id,
          specialityId: cardiology,
          startsAt: at(10),
        })
      ).id,
    };
    await insertProposal(api.db, ids.proposed, heart.user.id);
    await insertProposal(api.db, ids.proposed, (await api.createDoctor({ specialities: ["Cardiology"] })).user.id);
  });

  const list = (query = "", token = patient.token) =>
    api.request("GET", `/appointment${query}`, { answer: patientAppointmentPage, token });
  const listIds = async (query: string) => (await list(query)).body.appointments.map((a: { id: string }) => a.id);

  describe("GET /appointment", () => {
    it("lists only the patient's own appointments, latest slot first, 20 a page", async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 6, page: 1, limit: 20, totalPages: 1 });
      expect(res.body.appointments.map((a: { id: string }) => a.id)).toEqual([
        ids.proposed,
        ids.open,
        ids.cancelled,
        ids.pending,
        ids.confirmed,
        ids.past,
      ]);
      expect(res.body.appointments.map((a: { id: string }) => a.id)).not.toContain(ids.othersPending);
    });

    it("serializes each appointment with its pending proposal count", async () => {
      const { body } = await list();
      const byId = Object.fromEntries(body.appointments.map((a) => [a.id, a]));
      expect(byId[ids.proposed]).toMatchObject({
        status: "proposed",
        category: "random",
        Doctor: null,
        proposalCount: 2,
      });
      expect(byId[ids.confirmed]).toMatchObject({
        status: "confirmed",
        type: "in-person",
        Doctor: { id: heart.user.id, username: "Dr Mbarga", specialities: [{ name: "Cardiology" }] },
        Speciality: { name: "Cardiology" },
        City: { name: "Douala" },
        proposalCount: 0,
      });
    });

    it("has the 'Assigned to me' and 'Open requests' tabs", async () => {
      expect(await listIds("?assigned=true")).toEqual([ids.cancelled, ids.pending, ids.confirmed, ids.past]);
      expect(await listIds("?assigned=false")).toEqual([ids.proposed, ids.open]);
      expect(await listIds("?category=random")).toEqual([ids.proposed, ids.open]);
      expect(await listIds("?category=direct&status=pending")).toEqual([ids.pending]);
    });

    it("filters by status, type, city and country", async () => {
      expect(await listIds("?status=completed")).toEqual([ids.past]);
      expect(await listIds("?type=in-person")).toEqual([ids.confirmed]);
      expect(await listIds(`?city=${ref.city("Douala").id}`)).toEqual([ids.confirmed]);
      expect(await listIds(`?country=${ref.cameroon.id}`)).toEqual([ids.confirmed]);
      expect(await listIds("?status=&type=&category=&assigned=&search=")).toHaveLength(6);
    });

    it("searches doctor names and speciality names case-insensitively, in both languages", async () => {
      expect(await listIds("?search=MBARGA")).toEqual([ids.confirmed, ids.past]);
      expect(await listIds("?search=dermato")).toEqual([ids.open, ids.cancelled, ids.pending]);
      expect(await listIds("?search=cardiologie")).toEqual([ids.proposed, ids.confirmed, ids.past]);
      expect(await listIds("?search=nobody")).toEqual([]);
      expect(await listIds("?search=%25")).toEqual([]);
    });

    it("pages with totals, caps the page size at 100 and refuses bad filters", async () => {
      expect((await list("?limit=4&page=2")).body).toMatchObject({ total: 6, page: 2, limit: 4, totalPages: 2 });
      expect(await listIds("?limit=4&page=2")).toEqual([ids.confirmed, ids.past]);
      expect((await list("?limit=1000")).body.limit).toBe(100);
      for (const bad of [
        "?status=done",
        "?type=video",
        "?category=open",
        "?assigned=maybe",
        "?page=-1",
        "?city=Douala",
      ]) {
        expect((await list(bad)).status).toBe(400);
      }
    });

    it("lets an admin see everyone's appointments (audited), and refuses doctors", async () => {
      const admin = await api.createAdmin();
      const res = await list("", admin.token);
      expect(res.body.total).toBe(7);
      const audited = await api.db.select().from(auditEvents).where(eq(auditEvents.actorId, admin.user.id));
      expect(new Set(audited.map((e) => e.subjectUserId))).toEqual(new Set([patient.user.id, other.user.id]));
      expect((await list("", heart.token)).status).toBe(403);
      expect((await api.request("GET", "/appointment")).status).toBe(401);
    });
  });

  describe("GET /appointment/{id}", () => {
    it("shows the patient's own appointment, and 404 for anyone else's", async () => {
      const own = await api.request("GET", `/appointment/${ids.proposed}`, { token: patient.token });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: ids.proposed, proposalCount: 2 });
      expect((await api.request("GET", `/appointment/${ids.othersPending}`, { token: patient.token })).status).toBe(
        404,
      );
      expect((await api.request("GET", "/appointment/not-a-uuid", { token: patient.token })).status).toBe(404);
      // Doctors read appointments through their own router; this one is not theirs.
      expect([403, 404]).toContain(
        (await api.request("GET", `/appointment/${ids.pending}`, { token: heart.token })).status,
      );
    });
  });

  describe("PATCH /appointment/{id} (patient cancels)", () => {
    const cancel = (
      id: string,
      token = patient.token,
      body: unknown = { status: "cancelled" },
      headers?: Record<string, string>,
    ) => api.request("PATCH", `/appointment/${id}`, { answer: changedAppointment, token, body, headers });

    it("cancels a pending or confirmed appointment, irreversibly", async () => {
      const res = await cancel(ids.pending);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: "Appointment cancelled successfully!",
        appointment: { id: ids.pending, status: "cancelled" },
      });
      expect((await cancel(ids.confirmed)).body.appointment.status).toBe("cancelled");
      const again = await cancel(ids.pending);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: "This appointment cannot be cancelled", code: "invalid_transition" });
    });

    it("refuses to cancel a completed appointment", async () => {
      const res = await cancel(ids.past);
      expect(res.status).toBe(409);
      expect(refusal(res).code).toBe("invalid_transition");
    });

    it("refuses to cancel a pending, confirmed or open appointment whose start has passed (409 already_started)", async () => {
      const dermatology = ref.speciality("Dermatology").id;
      const started = [
        await insertAppointment(api.db, {
          patientId: patient.user.id,
          doctorId: skin.user.id,
          specialityId: dermatology,
          status: "pending",
          startsAt: new Date(Date.now() - 60_000),
        }),
        await insertAppointment(api.db, {
          patientId: patient.user.id,
          doctorId: skin.user.id,
          specialityId: dermatology,
          status: "confirmed",
          startsAt: new Date(Date.now() - 86_400_000),
        }),
        await insertOpenRequest(api.db, {
          patientId: patient.user.id,
          specialityId: dermatology,
          startsAt: new Date(Date.now() - 2 * 86_400_000),
        }),
      ];
      for (const a of started) {
        const res = await cancel(a.id);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          message: "This appointment has already started and can no longer be cancelled",
          code: "already_started",
        });
        expect(
          (await api.request("GET", `/appointment/${a.id}`, { answer: patientAppointment, token: patient.token })).body
            .status,
        ).toBe(a.status);
      }
    });

    it("cancels an open request with proposals and rejects the pending proposals", async () => {
      const res = await cancel(ids.proposed);
      expect(res.body.appointment.status).toBe("cancelled");
      const left = await api.db.select().from(proposals).where(eq(proposals.appointmentId, ids.proposed));
      expect(left.map((p) => p.status)).toEqual(["rejected", "rejected"]);
    });

    it("answers 404 for another patient's appointment and leaves it alone", async () => {
      expect((await cancel(ids.othersPending)).status).toBe(404);
      expect((await cancel("00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await cancel("nope")).status).toBe(404);
      const theirs = await api.request("GET", `/appointment/${ids.othersPending}`, {
        answer: patientAppointment,
        token: other.token,
      });
      expect(theirs.body.status).toBe("pending");
    });

    it("only cancels: any other status is a 400", async () => {
      for (const body of [{ status: "confirmed" }, { status: "completed" }, {}, { date: "2030-01-01" }]) {
        const res = await cancel(ids.open, patient.token, body);
        expect(res.status).toBe(400);
        expect(refusal(res).code).toBe("invalid_status");
      }
    });

    it("is for patients only, and a replayed cancellation answers the same", async () => {
      expect((await cancel(ids.othersPending, heart.token)).status).toBe(403);
      expect((await cancel(ids.othersPending, (await api.createAdmin()).token)).status).toBe(403);
      const headers = { "idempotency-key": "cancel-open-0001" };
      const first = await cancel(ids.open, patient.token, { status: "cancelled" }, headers);
      const replay = await cancel(ids.open, patient.token, { status: "cancelled" }, headers);
      expect(first.status).toBe(200);
      expect(replay).toEqual(first);
      const rows = await api.db.select().from(proposals).where(eq(proposals.appointmentId, ids.open));
      expect(rows).toEqual([]);
    });
  });
});
