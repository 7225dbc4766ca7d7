// The calendar files are checked by parsing them with ical.js (a separate implementation of RFC
// 5545), not by comparing text: what matters is what a calendar application reads.
import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import en from "../../locales/en/calendar.json" with { type: "json" };
import fr from "../../locales/fr/calendar.json" with { type: "json" };
import { appointmentUid, buildCalendar, type CalendarAppointment } from "./ics.ts";

const base: CalendarAppointment = {
  id: "0b5c9a1e-1111-4222-8333-444455556666",
  status: "confirmed",
  type: "in-person",
  // 09:00 in Douala (UTC+1).
  startsAt: new Date("2026-12-01T08:00:00Z"),
  // A 20-minute visit.
  endsAt: new Date("2026-12-01T08:20:00Z"),
  createdAt: new Date("2026-11-20T10:00:00Z"),
  updatedAt: null,
  doctorName: "Paul Ngo",
  patientName: "Ann Eyong",
  speciality: { name: "Cardiology", nameFr: "Cardiologie" },
  place: "Laquintinie Hospital",
  city: "Douala",
  country: "Cameroon",
};
const organizer = { name: "HealthBook", email: "no-reply@healthbook.test" };

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
  return { calendar, events, vevents: calendar.getAllSubcomponents("vevent") };
}

describe("buildCalendar", () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it("writes the slot in the clinic time zone with its VTIMEZONE, whatever the server's own zone", () => {
    process.env.TZ = "Asia/Tokyo";
    const { calendar, events, vevents } = parse(
      buildCalendar([base], { method: "PUBLISH", locale: "en", reader: "patient", timeZone: "Africa/Douala" }),
    );
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    const zone = calendar.getFirstSubcomponent("vtimezone");
    expect(zone?.getFirstPropertyValue("tzid")).toBe("Africa/Douala");
    const [event] = events;
    expect(vevents[0]!.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Africa/Douala");
    expect(event!.startDate.toString()).toBe("2026-12-01T09:00:00");
    expect(event!.startDate.toJSDate().toISOString()).toBe("2026-12-01T08:00:00.000Z");
    expect(event!.endDate.toJSDate().toISOString()).toBe("2026-12-01T08:20:00.000Z");
    // DTSTAMP, CREATED and LAST-MODIFIED are UTC times (RFC 5545 3.8.7).
    for (const name of ["dtstamp", "created", "last-modified"]) {
      expect((vevents[0]!.getFirstPropertyValue(name) as ICAL.Time).zone).toBe(ICAL.Timezone.utcTimezone);
    }
  });

  it("follows the zone's daylight saving time through its VTIMEZONE", () => {
    const summer = { ...base, startsAt: new Date("2026-07-01T13:00:00Z"), endsAt: new Date("2026-07-01T13:20:00Z") };
    const winter = {
      ...base,
      id: "1b5c9a1e-1111-4222-8333-444455556666",
      startsAt: new Date("2026-12-01T14:00:00Z"),
      endsAt: new Date("2026-12-01T14:20:00Z"),
    };
    const text = buildCalendar([summer, winter], {
      method: "PUBLISH",
      locale: "en",
      reader: "patient",
      timeZone: "Europe/Paris",
    });
    const { calendar, events } = parse(text);
    // ical.js resolves TZID against the file's own VTIMEZONE: register it as a calendar app would.
    ICAL.TimezoneService.register(calendar.getFirstSubcomponent("vtimezone")!);
    try {
      expect(events.map((e) => e.startDate.toString())).toEqual(["2026-07-01T15:00:00", "2026-12-01T15:00:00"]);
      expect(events.map((e) => e.startDate.toJSDate().toISOString())).toEqual([
        "2026-07-01T13:00:00.000Z",
        "2026-12-01T14:00:00.000Z",
      ]);
    } finally {
      ICAL.TimezoneService.remove("Europe/Paris");
    }
  });

  it("keeps one UID per appointment and a SEQUENCE that grows with each change", () => {
    const first = parse(buildCalendar([base], { method: "PUBLISH", locale: "en", reader: "patient" })).events[0]!;
    const changed = parse(
      buildCalendar([{ ...base, updatedAt: new Date("2026-11-21T10:00:00Z") }], {
        method: "PUBLISH",
        locale: "en",
        reader: "doctor",
      }),
    ).events[0]!;
    const later = parse(
      buildCalendar([{ ...base, updatedAt: new Date("2026-11-21T10:00:05Z") }], {
        method: "PUBLISH",
        locale: "fr",
        reader: "doctor",
      }),
    ).events[0]!;
    expect(first.uid).toBe(`${base.id}@appointments.healthbook`);
    expect(appointmentUid(base.id)).toBe(first.uid);
    expect([changed.uid, later.uid]).toEqual([first.uid, first.uid]);
    expect(first.sequence).toBe(0);
    expect(changed.sequence).toBeGreaterThan(first.sequence);
    expect(later.sequence).toBeGreaterThan(changed.sequence);
  });

  it("writes an invitation with an organizer and attendees, and a cancellation that cancels every entry", () => {
    const attendees = [{ name: "Ann Eyong", email: "ann@example.com" }];
    const request = parse(
      buildCalendar([base], { method: "REQUEST", organizer, attendees, locale: "en", reader: "patient" }),
    );
    expect(request.calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    expect(String(request.vevents[0]!.getFirstPropertyValue("organizer")).toLowerCase()).toBe(
      "mailto:no-reply@healthbook.test",
    );
    expect(String(request.vevents[0]!.getFirstPropertyValue("attendee")).toLowerCase()).toBe("mailto:ann@example.com");
    expect(request.vevents[0]!.getFirstPropertyValue("status")).toBe("CONFIRMED");

    const cancelled = { ...base, status: "cancelled" as const, updatedAt: new Date("2026-11-22T10:00:00Z") };
    const cancel = parse(
      buildCalendar([cancelled], { method: "CANCEL", organizer, attendees, locale: "en", reader: "patient" }),
    );
    expect(cancel.calendar.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(cancel.vevents[0]!.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancel.events[0]!.uid).toBe(request.events[0]!.uid);
    expect(cancel.events[0]!.sequence).toBeGreaterThan(request.events[0]!.sequence);
    // Even an appointment whose row is not cancelled yet is cancelled by a CANCEL file.
    const forced = parse(buildCalendar([base], { method: "CANCEL", organizer, locale: "fr", reader: "doctor" }));
    expect(forced.vevents[0]!.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(forced.events[0]!.description).toContain("Statut : annulé");
  });

  it("marks appointments not yet confirmed as tentative", () => {
    const { vevents } = parse(
      buildCalendar(
        [
          { ...base, status: "pending" },
          { ...base, id: "2b5c9a1e-1111-4222-8333-444455556666", status: "proposed" },
        ],
        { method: "PUBLISH", locale: "en", reader: "patient" },
      ),
    );
    expect(vevents.map((v) => v.getFirstPropertyValue("status"))).toEqual(["TENTATIVE", "TENTATIVE"]);
  });

  it("keeps a missed appointment's hour as it was booked, and says in both languages that it was missed", () => {
    for (const [locale, words] of [
      ["en", "Status: missed (the patient did not come)"],
      ["fr", "Statut : manqué (le patient ne s'est pas présenté)"],
    ] as const) {
      const { vevents, events } = parse(
        buildCalendar([{ ...base, status: "missed" }], { method: "PUBLISH", locale, reader: "doctor" }),
      );
      expect(vevents[0]!.getFirstPropertyValue("status")).toBe("CONFIRMED");
      expect(events[0]!.description).toContain(words);
    }
  });

  it("writes the texts in the reader's language, naming the other party", () => {
    const en = parse(buildCalendar([base], { method: "PUBLISH", locale: "en", reader: "patient" }));
    expect(en.calendar.getFirstPropertyValue("x-wr-calname")).toBe("HealthBook appointments");
    expect(en.events[0]!.summary).toBe("Appointment with Dr. Paul Ngo");
    expect(en.events[0]!.location).toBe("Laquintinie Hospital, Douala, Cameroon");
    expect(en.events[0]!.description).toContain("In-person consultation\nStatus: confirmed\nSpeciality: Cardiology");

    const fr = parse(
      buildCalendar([{ ...base, type: "online" }], { method: "PUBLISH", locale: "fr", reader: "doctor" }),
    );
    expect(fr.calendar.getFirstPropertyValue("x-wr-calname")).toBe("Rendez-vous HealthBook");
    expect(fr.events[0]!.summary).toBe("Rendez-vous avec Ann Eyong");
    expect(fr.events[0]!.location).toBe("Vidéo en ligne");
    expect(fr.events[0]!.description).toContain(
      "Consultation vidéo en ligne\nStatut : confirmé\nSpécialité : Cardiologie",
    );

    const request = parse(
      buildCalendar([{ ...base, doctorName: null }], { method: "PUBLISH", locale: "fr", reader: "patient" }),
    );
    expect(request.events[0]!.summary).toBe("Demande de rendez-vous");
  });

  it("keeps user text as text: separators and line breaks in names cannot add properties", () => {
    const hostile = { ...base, doctorName: "X\r\nATTENDEE:mailto:evil@example.com;,\\", place: "A, B; C" };
    const { events, vevents } = parse(buildCalendar([hostile], { method: "PUBLISH", locale: "en", reader: "patient" }));
    expect(vevents[0]!.getAllProperties("attendee")).toHaveLength(0);
    expect(events[0]!.summary).toBe(
      "Appointment with Dr. X\r\nATTENDEE:mailto:evil@example.com;,\\".replace("\r\n", "\n"),
    );
    expect(events[0]!.location).toBe("A, B; C, Douala, Cameroon");
  });

  it("holds many appointments, each once, and an empty calendar is still valid", () => {
    const many = Array.from({ length: 3 }, (_, i) => ({
      ...base,
      id: `${i}b5c9a1e-1111-4222-8333-444455556666`,
      startsAt: new Date(base.startsAt.getTime() + i * 86_400_000),
    }));
    const { events } = parse(buildCalendar(many, { method: "PUBLISH", locale: "en", reader: "doctor" }));
    expect(events.map((e) => e.uid)).toEqual(many.map((a) => appointmentUid(a.id)));
    expect(parse(buildCalendar([], { method: "PUBLISH", locale: "en", reader: "doctor" })).events).toEqual([]);
  });
});

it("has the same calendar texts in English and French", () => {
  const keys = (o: object, prefix = ""): string[] =>
    Object.entries(o)
      .flatMap(([k, v]) => (typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]))
      .sort();
  expect(keys(fr)).toEqual(keys(en));
});
