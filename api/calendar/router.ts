// /calendar (docs/calendars.md): an appointment as an .ics file and its video link, for its two
// parties only; the user's private feed (status, renew, revoke); and the feed itself, which a
// calendar application fetches with the secret in its URL and no session.
import { Router, type Request, type Response } from "express";
import { and, asc, eq, gte, inArray } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { appointments } from "../db/schema.ts";
import { authenticate, currentUser, notFound, type AuthUser } from "../http.ts";
import { createThrottles } from "../throttle.ts";
import { auditPatients } from "../audit.ts";
import { isUuid } from "../../contract/fields.ts";
import { appointmentNotFound } from "../appointment/patient-data.ts";
import { appointmentWith, findAppointment } from "../appointment/serialize.ts";
import { clinicToday, zonedInstant } from "../time.ts";
import { toLocale, type Locale } from "../mail/templates.ts";
import { buildCalendar, calendarAppointment, type Reader } from "./ics.ts";
import { feedStatus, lookUpFeed, renewFeed, revokeFeeds } from "./feeds.ts";
import { videoLink } from "./video.ts";

/** The most appointments a feed holds: a doctor's next weeks, far more than a phone shows. */
const FEED_LIMIT = 500;

// The feed lists what is still to happen: today's appointments (from midnight in the clinic zone,
// so the day's earlier ones stay on a doctor's phone) and later, not cancelled or completed.
const FEED_STATUSES = ["pending", "proposed", "confirmed"] as const;

/** An appointment of which `user` is one of the two parties, or 404 (never 403: nothing is told). */
async function ownAppointment(db: Db, user: AuthUser, id: string) {
  if (!isUuid(id)) throw appointmentNotFound();
  const row = await findAppointment(db, id);
  if (!row || (row.patientId !== user.id && row.doctorId !== user.id)) throw appointmentNotFound();
  return { row, reader: (row.patientId === user.id ? "patient" : "doctor") as Reader };
}

/** The language the page asked in (the web tier forwards it), else the account's. */
const languageOf = (req: Request, user: AuthUser): Locale => toLocale(req.acceptsLanguages("en", "fr") || user.locale);

function sendCalendar(res: Response, body: string, filename?: string) {
  res.type("text/calendar; charset=utf-8");
  if (filename) res.set("Content-Disposition", `attachment; filename="${filename}"`);
  res.send(body);
}

export function calendarRouter({ db }: ApiDeps) {
  const router = Router();
  const limits = createThrottles(db);

  router.get("/appointments/:id", authenticate(db, "patient", "doctor"), async (req, res) => {
    const user = currentUser(req);
    const { row, reader } = await ownAppointment(db, user, String(req.params.id));
    if (reader === "doctor") await auditPatients(db, user.id, [row.patientId], "read", "appointment_calendar", row.id);
    sendCalendar(
      res,
      buildCalendar([calendarAppointment(row)], { method: "PUBLISH", locale: languageOf(req, user), reader }),
      `appointment-${row.id}.ics`,
    );
  });

  router.get("/appointments/:id/video", authenticate(db, "patient", "doctor"), async (req, res) => {
    const { row } = await ownAppointment(db, currentUser(req), String(req.params.id));
    res.json(await videoLink(db, row));
  });

  router.get("/feed", authenticate(db, "patient", "doctor"), async (req, res) => {
    res.json(await feedStatus(db, currentUser(req).id));
  });

  // Not idempotent on purpose: a replayed answer would have to keep the secret in the database.
  // A form sent twice renews twice, and the page shows the URL of the last one.
  router.post("/feed", authenticate(db, "patient", "doctor"), async (req, res) => {
    res.status(201).json(await renewFeed(db, currentUser(req).id));
  });

  router.delete("/feed", authenticate(db, "patient", "doctor"), async (req, res) => {
    await revokeFeeds(db, currentUser(req).id);
    res.status(204).end();
  });

  // The secret is the whole authorization: no session, and the same 404 for a URL that never
  // existed and one revoked. Unknown URLs are counted per address (docs/throttling.md).
  router.get("/feed/:token", async (req, res) => {
    const ip = req.ip ?? "unknown";
    await limits.beforeFeed(res, ip);
    const token = String(req.params.token).replace(/\.ics$/, "");
    const feed = await lookUpFeed(db, token);
    if (feed.kind !== "live") {
      if (feed.kind === "unknown") await limits.feedMissed(ip);
      throw notFound();
    }
    await limits.feedFetched(res, feed.feedId);
    const { user } = feed;
    if (user.role === "admin" || user.role === "receptionist") throw notFound();
    const reader: Reader = user.role;
    const rows = await db.query.appointments.findMany({
      where: and(
        eq(reader === "doctor" ? appointments.doctorId : appointments.patientId, user.id),
        inArray(appointments.status, [...FEED_STATUSES]),
        gte(appointments.startsAt, zonedInstant(clinicToday(), "00:00")),
      ),
      with: appointmentWith,
      orderBy: asc(appointments.startsAt),
      limit: FEED_LIMIT,
    });
    if (reader === "doctor")
      await auditPatients(
        db,
        user.id,
        rows.map((r) => r.patientId),
        "read",
        "calendar_feed",
      );
    sendCalendar(
      res,
      buildCalendar(rows.map(calendarAppointment), {
        method: "PUBLISH",
        locale: toLocale(user.locale),
        reader,
        ttl: 3600,
      }),
    );
  });

  return router;
}
