// The clinic calendar's forms (docs/product.md, Availability screens): a doctor's working plan and
// absences, the admin's closed days. One schema per form, used by the route's action and by conform
// in the browser; errors are translation keys. The API checks the same bounds again (contract/).
import { z } from "zod";
import {
  CALENDAR_REASON_MAX,
  MAX_ABSENCE_DAYS,
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  PLAN_GRID_MINUTES,
  WEEKDAYS,
  type Weekday,
} from "../contract/constants.ts";
import { isVisitLength, minutesOf, periodsOf } from "../contract/visit-plan.ts";
import { MAX_PERIODS, onGrid, type PeriodValue, startsOfDay } from "./plan-periods.ts";
import { daysFrom } from "../contract/days.ts";
import { isCalendarDate } from "../contract/fields.ts";

/** A period of work as typed: from and to (HH:MM), either left empty on a row not used. */
const period = z.object({ from: z.string().optional(), to: z.string().optional() });

const dayPeriods = z.array(period).max(MAX_PERIODS, "doctor:availability.tooManyPeriods").default([]);

const wholeNumber = (required: string, outOfRange: string, min: number, max: number) =>
  z.number({ error: required }).int(outOfRange).min(min, outOfRange).max(max, outOfRange);

/**
 * The working plan as a doctor sets it (docs/product.md, Availability screens): one visit length,
 * and per weekday the periods of work (from, to); a row left empty is no period. Each period is
 * checked where it is typed: both ends given, on the grid, the end after the start with room for
 * one visit, and no overlap with the day's other periods. `planBody` turns the answer into the
 * API's week of start times.
 */
export const planSchema = z
  .object({
    // On the grid too (VISIT_MINUTES_MIN to VISIT_MINUTES_MAX): every start of a period then falls on it.
    visitMinutes: z
      .number({ error: "doctor:availability.visitRequired" })
      .refine((m) => isVisitLength(m) && m % PLAN_GRID_MINUTES === 0, "doctor:availability.visitRange"),
    days: z
      .object(Object.fromEntries(WEEKDAYS.map((day) => [day, dayPeriods])) as Record<Weekday, typeof dayPeriods>)
      .default(Object.fromEntries(WEEKDAYS.map((day) => [day, []])) as unknown as Record<Weekday, PeriodValue[]>),
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
  })
  .superRefine((plan, ctx) => {
    const problem = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: "custom", path: ["days", ...path], message });
    for (const day of WEEKDAYS) {
      const whole: { from: number; index: number; to: number }[] = [];
      for (const [index, { from, to }] of plan.days[day].entries()) {
        const wrong = periodProblem(from, to, plan.visitMinutes);
        if (wrong) problem([day, index, wrong.end], wrong.message);
        else if (from && to) whole.push({ from: minutesOf(from), to: minutesOf(to), index });
      }
      whole.sort((a, b) => a.from - b.from);
      for (let i = 1; i < whole.length; i++) {
        if (whole[i]!.from < whole[i - 1]!.to)
          problem([day, whole[i]!.index, "from"], "doctor:availability.periodOverlap");
      }
    }
  });

/** What is wrong with one period as typed, and at which end; null for a whole period or an empty row. */
function periodProblem(from: string | undefined, to: string | undefined, visitMinutes: number) {
  const at = (end: "from" | "to", message: string) => ({ end, message: `doctor:availability.${message}` });
  if (!from && !to) return null;
  if (!from) return at("from", "periodFromRequired");
  if (!onGrid(from)) return at("from", "periodOffGrid");
  if (!to) return at("to", "periodToRequired");
  if (!onGrid(to)) return at("to", "periodOffGrid");
  if (to <= from) return at("to", "periodToBeforeFrom");
  if (minutesOf(to) - minutesOf(from) < visitMinutes) return at("to", "periodTooShort");
  return null;
}
export type PlanForm = z.output<typeof planSchema>;

/** The body of PUT /doctor/working-plan: each day's periods as the start times of its visits. */
export function planBody(plan: PlanForm) {
  return {
    week: Object.fromEntries(WEEKDAYS.map((day) => [day, startsOfDay(plan.days[day], plan.visitMinutes)])) as Record<
      Weekday,
      string[]
    >,
    visitMinutes: plan.visitMinutes,
    minimumNoticeHours: plan.minimumNoticeHours,
    bookingHorizonDays: plan.bookingHorizonDays,
  };
}

/** The form's values of a saved plan: each day's start times as the periods they make. */
export function planValues(plan: {
  week: Partial<Record<Weekday, string[]>>;
  visitMinutes: number;
  minimumNoticeHours: number;
  bookingHorizonDays: number;
}) {
  return {
    visitMinutes: plan.visitMinutes,
    days: Object.fromEntries(WEEKDAYS.map((day) => [day, periodsOf(plan.week[day] ?? [], plan.visitMinutes)])),
    minimumNoticeHours: plan.minimumNoticeHours,
    bookingHorizonDays: plan.bookingHorizonDays,
  };
}

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
