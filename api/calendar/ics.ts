// iCalendar (RFC 5545) files of appointments: the .ics download, the subscription feed and the
// 'Add to calendar' attachment of appointment mails all come from buildCalendar, so one appointment
// is always the same entry with the same UID in every calendar it reaches (docs/calendars.md).
import { TZDate } from "@date-fns/tz";
import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import en from "../../locales/en/calendar.json" with { type: "json" };
import fr from "../../locales/fr/calendar.json" with { type: "json" };
import { clinicTimeZone } from "../time.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import type { findAppointment } from "../appointment/serialize.ts";
import type { Locale } from "../mail/templates.ts";
import type { AppointmentStatus, StoredAppointmentType } from "../../contract/constants.ts";

const texts = { en, fr } as const;

/**
 * UIDs must not change with the host name the app is reached by (a calendar would then keep two
 * copies of one appointment), so they name the product, not a server.
 */
const UID_DOMAIN = "appointments.healthbook";
export const appointmentUid = (id: string) => `${id}@${UID_DOMAIN}`;

/** What a calendar entry shows of an appointment. */
export interface CalendarAppointment {
  id: string;
  status: AppointmentStatus;
  type: StoredAppointmentType;
  startsAt: Date;
  /** The visit's end: its start plus the doctor's visit length when it was booked. */
  endsAt: Date;
  createdAt: Date;
  updatedAt: Date | null;
  /** Null for an open request that no doctor has taken yet. */
  doctorName: string | null;
  patientName: string;
  speciality: { name: string; nameFr: string } | null;
  place: string | null;
  city: string | null;
  country: string | null;
}

/** Whose calendar it is: the summary names the other party. */
export type Reader = "patient" | "doctor";

interface Person {
  name: string;
  email: string;
}

/**
 * PUBLISH: a file to import or a feed to subscribe to. REQUEST: an invitation attached to a mail,
 * which mail clients offer to add and later update. CANCEL: removes the entry (RFC 5546). The last
 * two need an organizer (RFC 5546 3.2.2, 3.2.5): the address the mail comes from.
 */
type CalendarMethod = { method: "PUBLISH" } | { method: "REQUEST" | "CANCEL"; organizer: Person; attendees?: Person[] };

export type CalendarOptions = CalendarMethod & {
  locale: Locale;
  reader: Reader;
  timeZone?: string;
  /** For a feed: how often, in seconds, a subscribed calendar should fetch it again. */
  ttl?: number;
};

function interpolate(text: string, values: Record<string, string>) {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");
}

/**
 * SEQUENCE must grow with every change an attendee should see (RFC 5545 3.8.7.4), and a change
 * always sets updated_at: the whole seconds between creation and the last change grow with each
 * change and fit the 31-bit integer the RFC allows for 68 years.
 */
function appointmentSequence(a: Pick<CalendarAppointment, "createdAt" | "updatedAt">): number {
  if (!a.updatedAt) return 0;
  return Math.max(0, Math.floor((a.updatedAt.getTime() - a.createdAt.getTime()) / 1000));
}

function summary(a: CalendarAppointment, reader: Reader, locale: Locale) {
  const t = texts[locale].summary;
  if (reader === "doctor") return interpolate(t.withPatient, { name: a.patientName });
  return a.doctorName ? interpolate(t.withDoctor, { name: a.doctorName }) : t.request;
}

function location(a: CalendarAppointment, locale: Locale) {
  if (a.type === "online") return texts[locale].onlineLocation;
  return [a.place, a.city, a.country].filter(Boolean).join(", ") || null;
}

function description(a: CalendarAppointment, locale: Locale, cancelled: boolean) {
  const t = texts[locale];
  const lines = [t.type[a.type], t.status[cancelled ? "cancelled" : a.status]];
  if (a.speciality)
    lines.push(interpolate(t.speciality, { name: locale === "fr" ? a.speciality.nameFr : a.speciality.name }));
  lines.push(t.manage);
  return lines.join("\n");
}

// Pending and proposed appointments may still be refused: tentative until the doctor confirms.
const STATUS: Record<AppointmentStatus, ICalEventStatus> = {
  pending: ICalEventStatus.TENTATIVE,
  proposed: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
  // The hour was booked and has passed; the description says the patient did not come.
  missed: ICalEventStatus.CONFIRMED,
};

/**
 * One VCALENDAR holding the given appointments, in the clinic time zone (a VTIMEZONE and TZID on
 * every time), with texts in `locale`. With METHOD:CANCEL every entry is STATUS:CANCELLED.
 */
export function buildCalendar(appointments: readonly CalendarAppointment[], options: CalendarOptions): string {
  const { locale, reader } = options;
  const timeZone = options.timeZone ?? clinicTimeZone();
  const cancelling = options.method === "CANCEL";
  const calendar = ical({
    prodId: { company: "HealthBook", product: "appointments", language: locale.toUpperCase() },
    name: texts[locale].calendarName,
    method: ICalCalendarMethod[options.method],
    // No calendar-wide zone: ical-generator would then write DTSTAMP, CREATED and LAST-MODIFIED
    // as local times, which RFC 5545 requires in UTC. Each event names the zone instead (TZID on
    // DTSTART and DTEND), and the generator adds the matching VTIMEZONE once.
    timezone: { name: null, generator: getVtimezoneComponent },
    ttl: options.ttl ?? null,
  });
  for (const a of appointments) {
    const event = calendar.createEvent({
      id: appointmentUid(a.id),
      sequence: appointmentSequence(a),
      // DTSTAMP: when this version of the entry was made, so a later file replaces an earlier one.
      stamp: a.updatedAt ?? a.createdAt,
      created: a.createdAt,
      lastModified: a.updatedAt ?? a.createdAt,
      // A TZDate, so the wall-clock time is the clinic's whatever the server's own zone (TZ) is.
      start: new TZDate(a.startsAt.getTime(), timeZone),
      end: new TZDate(a.endsAt.getTime(), timeZone),
      timezone: timeZone,
      summary: summary(a, reader, locale),
      description: description(a, locale, cancelling),
      location: location(a, locale),
      status: cancelling ? ICalEventStatus.CANCELLED : STATUS[a.status],
    });
    if (options.method !== "PUBLISH") {
      event.organizer({ name: options.organizer.name, email: options.organizer.email });
      for (const attendee of options.attendees ?? [])
        event.createAttendee({ name: attendee.name, email: attendee.email });
    }
  }
  return calendar.toString();
}

type Loaded = NonNullable<Awaited<ReturnType<typeof findAppointment>>>;

/** The calendar view of an appointment loaded with `appointmentWith` (serialize.ts). */
export function calendarAppointment(a: Loaded): CalendarAppointment {
  return {
    id: a.id,
    status: a.status,
    type: a.type,
    startsAt: a.startsAt,
    endsAt: a.endsAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    doctorName: a.doctor ? (a.doctor.deletedAt ? DELETED_USER : a.doctor.username) : null,
    patientName: a.patient.deletedAt ? DELETED_USER : a.patient.username,
    speciality: a.speciality ? { name: a.speciality.name, nameFr: a.speciality.nameFr } : null,
    place: a.place,
    city: a.city?.name ?? null,
    country: a.country?.name ?? null,
  };
}
