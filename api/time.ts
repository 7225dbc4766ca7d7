// Slots live in the clinic time zone (APP_TIMEZONE, default Africa/Douala). On the wire `date` is
// YYYY-MM-DD and `time` an ISO 8601 timestamp with its offset; both must name the same slot.
// Wall clock <-> instant goes through @date-fns/tz, which reads the zone's rules (daylight saving
// included) from the runtime's time-zone data (docs/decisions/0012-time-zones-with-date-fns-tz.md).
import { TZDate } from "@date-fns/tz";
import { config } from "../config.ts";
import { PLAN_GRID_MINUTES, SLOTS } from "../contract/constants.ts";
import { minutesOf } from "../contract/visit-plan.ts";
import { addDays } from "../contract/days.ts";
import { badRequest } from "./http.ts";
import { remembered } from "../contract/remembered.ts";

export const clinicTimeZone = () => config().APP_TIMEZONE;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(date: string): boolean {
  const instant = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 10) === date;
}

// The same few wall-clock slots are turned into instants again and again (each card of a search
// carries its next free slot): a TZDate costs about 20 µs, so the instants are remembered.
const slotInstants = remembered<number>(10_000);

/** The instant of a wall-clock date and HH:mm in the clinic zone (a time skipped by a DST change moves forward). */
export function zonedInstant(date: string, hhmm: string, timeZone = clinicTimeZone()): Date {
  return new Date(
    slotInstants(`${timeZone} ${date} ${hhmm}`, () => {
      const [year, month, day] = date.split("-").map(Number);
      const [hour, minute] = hhmm.split(":").map(Number);
      return new TZDate(year!, month! - 1, day!, hour!, minute!, timeZone).getTime();
    }),
  );
}

interface ClinicParts {
  readonly date: string;
  readonly time: string;
  readonly iso: string;
}

// Appointments start at a few slots a day, so the same instants are written again and again (every
// card of every list): the parts of a whole minute are remembered (a TZDate for every card was about
// 1.5% of the doctor's list page). Other instants (now, an audit's time, a time a request sends) are
// seen once and would only push the slots out.
const slotParts = remembered<ClinicParts>(10_000);

/** Wall-clock parts of an instant in the clinic zone, and its ISO 8601 form with the offset of that day. */
export function clinicParts(instant: Date, timeZone = clinicTimeZone()): ClinicParts {
  const ms = instant.getTime();
  return ms % 60_000 === 0 ? slotParts(`${timeZone} ${ms}`, () => partsOf(ms, timeZone)) : partsOf(ms, timeZone);
}

function partsOf(ms: number, timeZone: string): ClinicParts {
  // TZDate's toISOString is the wall-clock time with its offset: 2026-07-01T14:00:00.000+02:00.
  const local = new TZDate(ms, timeZone).toISOString();
  return Object.freeze({
    date: local.slice(0, 10),
    time: local.slice(11, 16),
    iso: `${local.slice(0, 19)}${local.slice(23)}`,
  });
}

/** Today's date (YYYY-MM-DD) in the clinic zone. */
export const clinicToday = (now = new Date()) => clinicParts(now).date;

/** The instants from the start of the clinic day `from` to the start of the day after `to`. */
export const clinicDays = (from: string, to = from) => ({
  start: zonedInstant(from, "00:00"),
  end: zonedInstant(addDays(to, 1), "00:00"),
});

/**
 * Validates a requested start: a real date not before today, and a time given either as HH:mm or as
 * an ISO timestamp (any offset) that agrees with the date. The time is on the plans' 5-minute grid
 * (whether the doctor's plan offers it is the availability rule's answer), or with `sixSlots` one
 * of the six hourly slots (an open request's preferred times).
 */
export function parseSlot(date: unknown, time: unknown, { sixSlots = false } = {}): Date {
  // Date.parse rolls 2026-02-31 over to March 3rd: a real date prints back as itself.
  if (typeof date !== "string" || !DATE_RE.test(date) || !isRealDate(date)) {
    throw badRequest("A valid date is required", "invalid_date");
  }
  if (date < clinicToday()) throw badRequest("The date cannot be before today", "past_date");
  if (typeof time !== "string" || !time) throw badRequest("A time slot is required", "invalid_slot");
  let hhmm: string;
  if (/^\d{2}:\d{2}$/.test(time)) {
    if (Number(time.slice(0, 2)) > 23 || Number(time.slice(3)) > 59)
      throw badRequest("A valid time is required", "invalid_slot");
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
  if (sixSlots && !(SLOTS as readonly string[]).includes(hhmm)) {
    throw badRequest(`The time must be one of ${SLOTS.join(", ")}`, "invalid_slot");
  }
  if (minutesOf(hhmm) % PLAN_GRID_MINUTES !== 0) {
    throw badRequest(`The time must be on the ${PLAN_GRID_MINUTES}-minute grid`, "invalid_slot");
  }
  const startsAt = zonedInstant(date, hhmm);
  if (startsAt.getTime() <= Date.now()) {
    throw badRequest("That slot has already started", "past_date");
  }
  return startsAt;
}
