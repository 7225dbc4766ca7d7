// The clinic calendar's forms (docs/product.md, Availability screens): a doctor's working plan and
// absences, the admin's closed days. One schema per form, used by the route's action and by conform
// in the browser; errors are translation keys. The API checks the same bounds again (contract/).
import { z } from "zod";
import {
  CALENDAR_REASON_MAX,
  MAX_ABSENCE_DAYS,
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  SLOTS,
  WEEKDAYS,
  type Weekday,
} from "../contract/constants.ts";
import { daysFrom } from "../contract/days.ts";
import { isCalendarDate } from "../contract/fields.ts";

// A day's offered slots: the checked boxes of its row (none checked: the doctor does not work that day).
const daySlots = z.array(z.enum(SLOTS, "doctor:availability.slotInvalid"));

const wholeNumber = (required: string, outOfRange: string, min: number, max: number) =>
  z.number({ error: required }).int(outOfRange).min(min, outOfRange).max(max, outOfRange);

export const planSchema = z.object({
  week: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, daySlots])) as Record<Weekday, typeof daySlots>),
  minimumNoticeHours: wholeNumber(
    "doctor:availability.noticeRequired",
    "doctor:availability.noticeRange",
    0,
    MAX_NOTICE_HOURS,
  ),
  bookingHorizonDays: wholeNumber(
    "doctor:availability.horizonRequired",
    "doctor:availability.horizonRange",
    1,
    MAX_HORIZON_DAYS,
  ),
});

const calendarDay = (required: string) => z.string({ error: required }).refine(isCalendarDate, required);

/** A day of the calendar, today (clinic time) or later. */
const comingDay = (today: string, required: string) =>
  calendarDay(required).refine((d) => d >= today, "common:calendarDays.past");

const reason = (required = "common:calendarDays.reasonTooLong") =>
  z.string({ error: required }).trim().min(1, required).max(CALENDAR_REASON_MAX, "common:calendarDays.reasonTooLong");

/**
 * An absence not over yet (it may have begun), of at most MAX_ABSENCE_DAYS. `cancelAppointments`:
 * sent only by the conflict list's confirmation, once the doctor has seen the appointments the
 * period holds.
 */
export function absenceSchema(today: string) {
  return z
    .object({
      from: calendarDay("doctor:availability.fromRequired"),
      to: comingDay(today, "doctor:availability.toRequired"),
      reason: reason().optional(),
      cancelAppointments: z.boolean().optional(),
    })
    .refine((a) => a.to >= a.from, { path: ["to"], message: "doctor:availability.toBeforeFrom" })
    .refine((a) => a.to < a.from || daysFrom(a.from, a.to) + 1 <= MAX_ABSENCE_DAYS, {
      path: ["to"],
      message: "doctor:availability.tooLong",
    });
}

export function closureSchema(today: string) {
  return z.object({
    date: comingDay(today, "admin:closures.dateRequired"),
    reason: reason("admin:closures.reasonRequired"),
    cancelAppointments: z.boolean().optional(),
  });
}

/** The appointments an absence or a closed day would cancel: the soonest the API listed, and how many in all. */
export interface Conflicts {
  list: Conflict[];
  total: number;
}

/** An appointment an absence or a closed day would cancel, as the conflict list shows it. */
interface Conflict {
  id: string;
  /** YYYY-MM-DD and the slot's ISO time, as the API answers them. */
  date: string;
  time: string;
  /** null for an erased account, as for DELETED_USER (app/person.ts). */
  patient: string | null;
  /** Only in the admin's list: a closed day hits every doctor's appointments. */
  doctor: string | null;
}
