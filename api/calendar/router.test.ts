// /calendar through the API itself (docs/calendars.md): who may download an appointment's .ics,
// the private feed without a session and after revocation, its guard against guessing, and the
// video link's window and parties. Times are set relative to now; the API's clock decides.
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "../../config.ts";
import { appointments, auditEvents, calendarFeeds, workingPlans } from "../db/schema.ts";
import { refusal, startApi, type TestApi, type TestAdmin, type TestDoctor, type TestPatient } from "../test/harness.ts";
import { renewedFeed, videoLink } from "../../contract/calendar.ts";
import { insertAppointment, insertOpenRequest } from "../appointment/test-factories.ts";
import { zonedInstant } from "../time.ts";
import { appointmentUid } from "./ics.ts";
import { LIMITS } from "../throttle.ts";

const VIDEO = "https://meet.example.test/rooms";

describe("/calendar", () => {
  let api: TestApi;
  let patient: TestPatient;
  let otherPatient: TestPatient;
  let doctor: TestDoctor;
  let otherDoctor: TestDoctor;
  let admin: TestAdmin;
  let ids: Record<string, string>;
  // One "now" for every appointment around it, so that back-to-back visits stay back to back.
  const startedAt = Date.now();
  const minutes = (n: number) => new Date(startedAt + n * 60_000);

  beforeAll(async () => {
    process.env.VIDEO_BASE_URL = `${VIDEO}/`;
    resetConfigForTests();
    api = await startApi();
    const ref = await api.reference();
    patient = await api.createPatient({ username: "Ann Eyong", locale: "fr" });
    otherPatient = await api.createPatient();
    doctor = await api.createDoctor({ username: "Paul Ngo", specialities: ["Cardiology"] });
    otherDoctor = await api.createDoctor({ specialities: ["Cardiology"] });
    admin = await api.createAdmin();
    const cardiology = ref.speciality("Cardiology").id;
    /** An appointment booked while the doctor's visits were `length` minutes long. */
    const visitOf = async (length: number, values: Parameters<typeof insertAppointment>[1]) => {
      await api.db.update(workingPlans).set({ visitMinutes: length }).where(eq(workingPlans.doctorId, d));
      return insertAppointment(api.db, values);
    };
    const day = (days: number) =>
      zonedInstant(new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10), "10:00");
    const p = patient.user.id;
    const d = doctor.user.id;
    ids = {
      confirmed: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: d,
          specialityId: cardiology,
          status: "confirmed",
          type: "in-person",
          place: "Laquintinie",
          startsAt: day(5),
        })
      ).id,
      pending: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: d,
          specialityId: cardiology,
          status: "pending",
          startsAt: day(6),
        })
      ).id,
      cancelled: (await insertAppointment(api.db, { patientId: p, doctorId: d, status: "cancelled", startsAt: day(7) }))
        .id,
      past: (await insertAppointment(api.db, { patientId: p, doctorId: d, status: "completed", startsAt: day(-3) })).id,
      open: (await insertOpenRequest(api.db, { patientId: p, specialityId: cardiology, startsAt: day(8) })).id,
      othersAppointment: (
        await insertAppointment(api.db, {
          patientId: otherPatient.user.id,
          doctorId: otherDoctor.user.id,
          status: "confirmed",
          startsAt: day(5),
        })
      ).id,
      // Online appointments around now, for the video window, each as long as it can be without
      // overlapping the next (two visits of one doctor never overlap): the window closes at the end.
      inTenMinutes: (
        await visitOf(10, {
          patientId: p,
          doctorId: d,
          status: "confirmed",
          type: "online",
          startsAt: minutes(10),
        })
      ).id,
      inTwentyMinutes: (
        await visitOf(60, {
          patientId: p,
          doctorId: d,
          status: "confirmed",
          type: "online",
          startsAt: minutes(20),
        })
      ).id,
      startedAMinuteAgo: (
        await visitOf(6, {
          patientId: p,
          doctorId: d,
          status: "pending",
          type: "online",
          startsAt: minutes(-1),
        })
      ).id,
      endedJustNow: (
        await visitOf(59, {
          patientId: p,
          doctorId: d,
          status: "confirmed",
          type: "online",
          startsAt: minutes(-61),
        })
      ).id,
      inPersonNow: (
        await visitOf(5, {
          patientId: p,
          doctorId: d,
          status: "confirmed",
          type: "in-person",
          startsAt: minutes(5),
        })
      ).id,
      cancelledOnlineNow: (
        await insertAppointment(api.db, {
          patientId: p,
          doctorId: d,
          status: "cancelled",
          type: "online",
          startsAt: minutes(5),
        })
      ).id,
    };
  });
  afterAll(async () => {
    await api.close();
    delete process.env.VIDEO_BASE_URL;
    resetConfigForTests();
  });

  const get = (path: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
    fetch(api.url + path, {
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    });
  const events = (text: string) =>
    new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));

  describe("GET /calendar/appointments/{id}", () => {
    it("gives the patient the appointment as a calendar file in the language asked for", async () => {
      const res = await get(`/calendar/appointments/${ids.confirmed}`, {
        token: patient.token,
        headers: { "accept-language": "en" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="appointment-${ids.confirmed}.ics"`);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const [event] = events(await res.text());
      expect(event!.uid).toBe(appointmentUid(ids.confirmed!));
      expect(event!.summary).toBe("Appointment with Dr. Paul Ngo");
      expect(event!.startDate.toString()).toMatch(/T10:00:00$/);
    });

    it("gives the doctor the same entry naming the patient, in the account's language when none is asked, and records the read", async () => {
      const res = await get(`/calendar/appointments/${ids.confirmed}`, { token: doctor.token });
      expect(res.status).toBe(200);
      const [event] = events(await res.text());
      expect(event!.uid).toBe(appointmentUid(ids.confirmed!));
      expect(event!.summary).toBe("Appointment with Ann Eyong");
      const reads = await api.db.select().from(auditEvents).where(eq(auditEvents.entityId, ids.confirmed!));
      expect(reads).toEqual([
        expect.objectContaining({
          actorId: doctor.user.id,
          subjectUserId: patient.user.id,
          action: "read",
          entity: "appointment_calendar",
        }),
      ]);
    });

    it("is 404 for everyone else: another patient, another doctor, an admin, a doctor who could answer an open request", async () => {
      for (const [token, id] of [
        [otherPatient.token, ids.confirmed],
        [otherDoctor.token, ids.confirmed],
        [patient.token, ids.othersAppointment],
        [otherDoctor.token, ids.open],
      ] as const) {
        const res = await get(`/calendar/appointments/${id}`, { token });
        expect(res.status).toBe(404);
        expect(refusal({ status: res.status, body: await res.json() })).toEqual({
          message: "Appointment not found",
          code: "not_found",
        });
      }
      expect((await get(`/calendar/appointments/${ids.confirmed}`, { token: admin.token })).status).toBe(403);
    });

    it("is 401 without a token, and 404 for ids that are not appointments", async () => {
      expect((await get(`/calendar/appointments/${ids.confirmed}`)).status).toBe(401);
      for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "%27%20or%201%3D1"]) {
        expect((await get(`/calendar/appointments/${id}`, { token: patient.token })).status).toBe(404);
      }
    });
  });

  describe("the private feed", () => {
    it("is created, read without a session, renewed and revoked", async () => {
      expect((await api.request("GET", "/calendar/feed", { token: patient.token })).body).toEqual({
        active: false,
        createdAt: null,
      });
      const created = await api.request("POST", "/calendar/feed", { token: patient.token, answer: renewedFeed });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await api.request("GET", "/calendar/feed", { token: patient.token })).body).toEqual({
        active: true,
        createdAt: created.body.createdAt,
      });
      // Only the hash is stored.
      const rows = await api.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, patient.user.id));
      expect(JSON.stringify(rows)).not.toContain(created.body.token);

      const feed = await get(`/calendar/feed/${created.body.token}.ics`);
      expect(feed.status).toBe(200);
      expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      const text = await feed.text();
      expect(text).toContain("X-PUBLISHED-TTL:PT1H");
      const listed = events(text);
      // Today's and later appointments still on (pending, proposed, confirmed), soonest first, in
      // the account's language; nothing cancelled, completed or of someone else.
      const uids = listed.map((e) => e.uid);
      expect(uids.slice(-3)).toEqual([ids.confirmed, ids.pending, ids.open].map((id) => appointmentUid(id!)));
      expect(uids).toContain(appointmentUid(ids.inTenMinutes!));
      for (const id of [ids.cancelled, ids.past, ids.othersAppointment, ids.cancelledOnlineNow])
        expect(uids).not.toContain(appointmentUid(id!));
      const starts = listed.map((e) => e.startDate.toJSDate().getTime());
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      expect(listed.at(-3)!.summary).toBe("Rendez-vous avec le Dr Paul Ngo");
      expect(listed.at(-1)!.summary).toBe("Demande de rendez-vous");
      // Nothing of the video room goes into a file.
      expect(text).not.toContain("meet.example.test");
      // The same URL without the extension works too.
      expect((await get(`/calendar/feed/${created.body.token}`)).status).toBe(200);

      const renewed = await api.request("POST", "/calendar/feed", { token: patient.token, answer: renewedFeed });
      expect(renewed.body.token).not.toBe(created.body.token);
      expect((await get(`/calendar/feed/${created.body.token}.ics`)).status).toBe(404);
      expect((await get(`/calendar/feed/${renewed.body.token}.ics`)).status).toBe(200);

      expect((await api.request("DELETE", "/calendar/feed", { token: patient.token })).status).toBe(204);
      const revoked = await get(`/calendar/feed/${renewed.body.token}.ics`);
      expect(revoked.status).toBe(404);
      expect(await revoked.text()).not.toContain("BEGIN:VCALENDAR");
      expect((await api.request("GET", "/calendar/feed", { token: patient.token })).body).toEqual({
        active: false,
        createdAt: null,
      });
    });

    it("lists a doctor's assigned appointments, naming the patients, and records the read", async () => {
      const { body } = await api.request("POST", "/calendar/feed", { token: doctor.token, answer: renewedFeed });
      const res = await get(`/calendar/feed/${body.token}.ics`);
      const listed = events(await res.text());
      const uids = listed.map((e) => e.uid);
      expect(uids.slice(-2)).toEqual([ids.confirmed, ids.pending].map((id) => appointmentUid(id!)));
      expect(uids).toContain(appointmentUid(ids.inTenMinutes!));
      // Not the open request: no doctor has it yet.
      for (const id of [ids.open, ids.cancelled, ids.othersAppointment])
        expect(uids).not.toContain(appointmentUid(id!));
      expect(listed.at(-1)!.summary).toBe("Appointment with Ann Eyong");
      const reads = await api.db.select().from(auditEvents).where(eq(auditEvents.entity, "calendar_feed"));
      expect(reads).toEqual([
        expect.objectContaining({ actorId: doctor.user.id, subjectUserId: patient.user.id, action: "read" }),
      ]);
    });

    it("keeps each user's feed their own, and an erased account's feed stops", async () => {
      const mine = await api.request("POST", "/calendar/feed", { token: otherPatient.token, answer: renewedFeed });
      const text = await (await get(`/calendar/feed/${mine.body.token}`)).text();
      expect(events(text).map((e) => e.uid)).toEqual([appointmentUid(ids.othersAppointment!)]);
      expect((await api.request("DELETE", "/auth/delete-account", { token: otherPatient.token })).status).toBe(200);
      expect((await get(`/calendar/feed/${mine.body.token}`)).status).toBe(404);
    });

    it("has no feed for admins, and the management calls need a patient's or a doctor's session", async () => {
      expect((await api.request("POST", "/calendar/feed", { token: admin.token })).status).toBe(403);
      expect((await api.request("POST", "/calendar/feed")).status).toBe(401);
      expect((await api.request("DELETE", "/calendar/feed")).status).toBe(401);
      expect((await api.request("GET", "/calendar/feed")).status).toBe(401);
    });

    it("holds an address that names unknown feeds, but not one polling a revoked feed", async () => {
      const guesser = { "x-forwarded-for": "198.51.100.7" };
      for (let i = 0; i < LIMITS.feedMiss.points; i++) {
        const guess = `${String(i).padStart(2, "0")}${"A".repeat(41)}`;
        expect((await get(`/calendar/feed/${guess}.ics`, { headers: guesser })).status).toBe(404);
      }
      const held = await get(`/calendar/feed/${"B".repeat(43)}.ics`, { headers: guesser });
      expect(held.status).toBe(429);
      expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
      // While held, even a live feed is not looked up from that address; elsewhere it works.
      const live = await api.request("POST", "/calendar/feed", { token: patient.token, answer: renewedFeed });
      expect((await get(`/calendar/feed/${live.body.token}`, { headers: guesser })).status).toBe(429);
      expect(
        (await get(`/calendar/feed/${live.body.token}`, { headers: { "x-forwarded-for": "198.51.100.8" } })).status,
      ).toBe(200);

      const poller = { "x-forwarded-for": "198.51.100.9" };
      await api.request("DELETE", "/calendar/feed", { token: patient.token });
      for (let i = 0; i <= LIMITS.feedMiss.points; i++) {
        expect((await get(`/calendar/feed/${live.body.token}`, { headers: poller })).status).toBe(404);
      }
    });

    it("limits the fetches of one feed", async () => {
      const { body } = await api.request("POST", "/calendar/feed", { token: patient.token, answer: renewedFeed });
      for (let i = 0; i < LIMITS.feedFetch.points; i++) {
        expect(
          (await get(`/calendar/feed/${body.token}`, { headers: { "x-forwarded-for": `203.0.113.${i % 200}` } }))
            .status,
        ).toBe(200);
      }
      expect((await get(`/calendar/feed/${body.token}`)).status).toBe(429);
    });
  });

  describe("GET /calendar/appointments/{id}/video", () => {
    const video = (id: string, token: string) =>
      api.request("GET", `/calendar/appointments/${id}/video`, { token, answer: videoLink });

    it("gives both parties the same unguessable room from 15 minutes before the start", async () => {
      const forPatient = await video(ids.inTenMinutes!, patient.token);
      expect(forPatient.status).toBe(200);
      expect(forPatient.body.url).toMatch(new RegExp(`^${VIDEO}/[0-9a-f]{32}$`));
      const forDoctor = await video(ids.inTenMinutes!, doctor.token);
      expect(forDoctor.body.url).toBe(forPatient.body.url);
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, ids.inTenMinutes!));
      expect(forPatient.body.url).toBe(`${VIDEO}/${row!.videoRoom}`);
      // Until the visit's end: ten minutes after its start.
      expect(forPatient.body.closesAt).toBe(new Date(row!.startsAt.getTime() + 10 * 60_000).toISOString());
      // Another appointment has another room.
      const started = await video(ids.startedAMinuteAgo!, doctor.token);
      expect(started.body.url).toMatch(new RegExp(`^${VIDEO}/[0-9a-f]{32}$`));
      expect(started.body.url).not.toBe(forPatient.body.url);
    });

    it("gives no link before the window or after the end, but says when it opens", async () => {
      const early = await video(ids.inTwentyMinutes!, patient.token);
      expect(early.body.url).toBeNull();
      const [row] = await api.db.select().from(appointments).where(eq(appointments.id, ids.inTwentyMinutes!));
      expect(early.body.opensAt).toBe(new Date(row!.startsAt.getTime() - 15 * 60_000).toISOString());
      expect(row!.videoRoom).toBeNull();
      expect((await video(ids.endedJustNow!, doctor.token)).body.url).toBeNull();
    });

    it("gives no room to in-person or cancelled appointments", async () => {
      expect((await video(ids.inPersonNow!, patient.token)).body).toEqual({ url: null, opensAt: null, closesAt: null });
      expect((await video(ids.cancelledOnlineNow!, patient.token)).body).toEqual({
        url: null,
        opensAt: null,
        closesAt: null,
      });
    });

    it("is 404 for anyone but the two parties", async () => {
      const stranger = await api.createPatient();
      for (const token of [stranger.token, otherDoctor.token]) {
        const res = await video(ids.inTenMinutes!, token);
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain("meet.example.test");
      }
      expect((await video(ids.inTenMinutes!, admin.token)).status).toBe(403);
      expect((await api.request("GET", `/calendar/appointments/${ids.inTenMinutes}/video`)).status).toBe(401);
    });

    it("hides the link when no video service is configured", async () => {
      delete process.env.VIDEO_BASE_URL;
      resetConfigForTests();
      try {
        expect((await video(ids.inTenMinutes!, patient.token)).body).toEqual({
          url: null,
          opensAt: null,
          closesAt: null,
        });
      } finally {
        process.env.VIDEO_BASE_URL = `${VIDEO}/`;
        resetConfigForTests();
      }
    });
  });
});
