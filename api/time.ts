// Slots live in the clinic time zone (APP_TIMEZONE, default Africa/Douala). On the wire `date` is
// YYYY-MM-DD and `time` an ISO 8601 timestamp with its offset; both must name the same slot.
import { config } from "../config.ts";
import { badRequest } from "./http.ts";

export const SLOTS = ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"] as const;
export type Slot = (typeof SLOTS)[number];

export const clinicTimeZone = () => config().APP_TIMEZONE;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(date: string): boolean {
  const instant = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 10) === date;
}

// One formatter per zone: building one costs more than the whole offset computation.
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetFormat(timeZone: string) {
  let format = offsetFormats.get(timeZone);
  if (!format) offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })));
  return format;
}

/** Offset of the zone at an instant, in minutes east of UTC. */
export function zoneOffsetMinutes(instant: Date, timeZone = clinicTimeZone()): number {
  const name = offsetFormat(timeZone)
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName")?.value;
  const m = name?.match(/GMT([+-])(\d{2}):(\d{2})/);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The instant of a wall-clock date and HH:mm in the clinic zone. */
export function zonedInstant(date: string, hhmm: string, timeZone = clinicTimeZone()): Date {
  const guess = new Date(`${date}T${hhmm}:00Z`);
  const offset = zoneOffsetMinutes(guess, timeZone);
  return new Date(guess.getTime() - offset * 60_000);
}

/** Wall-clock parts of an instant in the clinic zone. */
export function clinicParts(instant: Date, timeZone = clinicTimeZone()) {
  const offset = zoneOffsetMinutes(instant, timeZone);
  const local = new Date(instant.getTime() + offset * 60_000).toISOString();
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const tz = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const date = local.slice(0, 10);
  const hhmm = local.slice(11, 16);
  return { date, time: hhmm, iso: `${date}T${hhmm}:00${tz}` };
}

/** Today's date (YYYY-MM-DD) in the clinic zone. */
export const clinicToday = (now = new Date()) => clinicParts(now).date;

/**
 * Validates a requested slot: a real date not before today, and a time that is one of the six
 * slots, given either as HH:mm or as an ISO timestamp (any offset) that agrees with the date.
 */
export function parseSlot(date: unknown, time: unknown): Date {
  // Date.parse rolls 2026-02-31 over to March 3rd: a real date prints back as itself.
  if (typeof date !== "string" || !DATE_RE.test(date) || !isRealDate(date)) {
    throw badRequest("A valid date is required", "invalid_date");
  }
  if (date < clinicToday()) throw badRequest("The date cannot be before today", "past_date");
  if (typeof time !== "string" || !time) throw badRequest("A time slot is required", "invalid_slot");
  let hhmm: string;
  if (/^\d{2}:\d{2}$/.test(time)) {
    if (Number(time.slice(0, 2)) > 23 || Number(time.slice(3)) > 59) throw badRequest("A valid time is required", "invalid_slot");
    hhmm = time;
  } else {
    const instant = new Date(time);
    if (Number.isNaN(instant.getTime()) || !/[zZ]|[+-]\d{2}:?\d{2}$/.test(time)) {
      throw badRequest("The time must be a slot or an ISO timestamp with its offset", "invalid_slot");
    }
    const parts = clinicParts(instant);
    if (parts.date !== date) throw badRequest("The date and time do not agree", "invalid_slot");
    hhmm = parts.time;
  }
  if (!(SLOTS as readonly string[]).includes(hhmm)) {
    throw badRequest(`The time must be one of ${SLOTS.join(", ")}`, "invalid_slot");
  }
  const startsAt = zonedInstant(date, hhmm);
  if (startsAt.getTime() <= Date.now()) {
    throw badRequest("That slot has already started", "past_date");
  }
  return startsAt;
}
