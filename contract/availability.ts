// The wire of the clinic's calendar (docs/product.md, Availability): a doctor's working plan and
// absences (/doctor/working-plan, /doctor/absences), the clinic's closed days (/admin/closures),
// and the codes of the one availability rule that refuses a slot (api/appointment/availability.ts).
import { z } from "zod";
import {
  CALENDAR_REASON_MAX,
  DEFAULT_VISIT_MINUTES,
  FIXED_HOLIDAYS,
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  PLAN_DAY_END,
  PLAN_DAY_START,
  PLAN_GRID_MINUTES,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  WEEKDAYS,
} from "./constants.ts";
import { type DayProblem, dayProblem } from "./visit-plan.ts";

/** The most start times one day holds: a visit every 5 minutes from 06:00 to 22:00. */
const MAX_STARTS_PER_DAY = 192;
import { person } from "./doctor.ts";
import { calendarDate, coded, optionalText } from "./fields.ts";

/**
 * Why a slot cannot be booked, one code per reason (409), in the order the rule checks them: a
 * slot with several reasons is refused with the first.
 */
export const SLOT_REFUSALS = [
  "past_date",
  "day_not_worked",
  "slot_not_offered",
  "notice_too_short",
  "beyond_horizon",
  "clinic_closed",
  "doctor_absent",
  "slot_taken",
  "visit_overlap",
] as const;
export type SlotRefusal = (typeof SLOT_REFUSALS)[number];

/** A day's start times (HH:MM), sorted, repeats once; checked against the visit length by `week` below. */
const dayStarts = (day: string) =>
  z
    .array(z.string(`${day}: a start must be a time HH:MM`), `${day} must be a list of start times`)
    .max(MAX_STARTS_PER_DAY, `${day}: too many start times`)
    .transform((starts) => [...new Set(starts)].sort())
    .default([]);

/**
 * The week of a working plan: for each weekday the start times of its visits. A day left out offers
 * none; a day not in WEEKDAYS is refused with its name.
 */
const week = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayStarts(day)])) as {
    [D in (typeof WEEKDAYS)[number]]: ReturnType<typeof dayStarts>;
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown day: ${issue.keys.join(", ")}`
        : "The week must list the start times of each day",
  },
);

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number(`${label} must be a whole number`)
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

const dayMessage = (day: string, problem: DayProblem, visitMinutes: number) =>
  problem.kind === "off_grid"
    ? `${day}: ${problem.time} is not a start on the ${PLAN_GRID_MINUTES}-minute grid whose ${visitMinutes}-minute visit fits between ${PLAN_DAY_START} and ${PLAN_DAY_END}`
    : `${day}: ${problem.time} starts less than ${visitMinutes} minutes after ${problem.previous}`;

/**
 * PUT /doctor/working-plan: the week, the visit length (every start at least that long after the
 * previous one), the minimum notice and the booking horizon. A plan sent without a visit length
 * keeps the hourly one.
 */
export const workingPlan = z
  .object({
    week: coded(week, "invalid_week"),
    visitMinutes: coded(
      wholeNumber("The visit length", VISIT_MINUTES_MIN, VISIT_MINUTES_MAX).default(DEFAULT_VISIT_MINUTES),
      "invalid_visit_minutes",
    ),
    minimumNoticeHours: coded(wholeNumber("The minimum notice", 0, MAX_NOTICE_HOURS), "invalid_notice"),
    bookingHorizonDays: coded(wholeNumber("The booking horizon", 1, MAX_HORIZON_DAYS), "invalid_horizon"),
  })
  .superRefine((plan, ctx) => {
    for (const day of WEEKDAYS) {
      const problem = dayProblem(plan.week[day], plan.visitMinutes);
      if (problem)
        ctx.addIssue({
          code: "custom",
          path: ["week", day],
          message: dayMessage(day, problem, plan.visitMinutes),
        });
    }
  });
export type WorkingPlan = z.output<typeof workingPlan>;

/** Whether the caller asks for the appointments in the period to be cancelled (a form's "on" too). */
const cancelAppointments = z.preprocess(
  (v) => v === "on" || v === "true" || v,
  z.boolean("cancelAppointments must be true or false").default(false),
);

/** POST /doctor/absences: a period away, both days included. */
export const absenceBody = z.object({
  from: coded(calendarDate("A valid start date is required"), "invalid_date"),
  to: coded(calendarDate("A valid end date is required"), "invalid_date"),
  reason: coded(optionalText(CALENDAR_REASON_MAX, "reason"), "invalid_reason"),
  cancelAppointments,
});

const absence = z.object({ id: z.string(), from: z.string(), to: z.string(), reason: z.string().nullable() });
/** GET /doctor/absences: the absences not yet over, soonest first. */
export const absenceList = z.object({ absences: z.array(absence) });

/** POST /admin/closures: a day the whole clinic is closed. */
export const closureBody = z.object({
  date: coded(calendarDate("A valid date is required"), "invalid_date"),
  reason: coded(
    z.preprocess(
      (v) => (typeof v === "string" ? v.trim() : v),
      z
        .string("A reason is required")
        .min(1, "A reason is required")
        .max(CALENDAR_REASON_MAX, `The reason must be at most ${CALENDAR_REASON_MAX} characters`),
    ),
    "invalid_reason",
  ),
  cancelAppointments,
});

/** A closed day: a fixed public holiday has its `holiday` key, which the page names in its language. */
const closure = z.object({
  id: z.string(),
  date: z.string(),
  reason: z.string(),
  holiday: z.enum(FIXED_HOLIDAYS).nullable(),
});

/** GET /admin/closures?to=YYYY-MM-DD: the closed days from today until `to` (included); every one without it. */
export const closureListQuery = z.object({
  to: coded(calendarDate("A valid date is required").optional(), "invalid_date"),
});

/** GET /admin/closures: the closed days asked for, soonest first, and how many come after `to`. */
export const closureList = z.object({ closures: z.array(closure), later: z.number().int() });

/** An appointment an absence or a closure would fall on (pending or confirmed). */
const periodAppointment = z.object({
  id: z.string(),
  status: z.enum(["pending", "confirmed"]),
  /** YYYY-MM-DD and the ISO instant with the clinic's offset, as in contract/appointment.ts. */
  date: z.string(),
  time: z.string(),
  Doctor: person.nullable(),
  Patient: person.nullable(),
});
export type PeriodAppointment = z.infer<typeof periodAppointment>;

/** An upcoming appointment that its doctor's current plan no longer offers (moved by hand, never by the plan). */
const outsidePlan = z.object({ appointments: z.array(periodAppointment), total: z.number().int() });

/** GET and PUT /doctor/working-plan: the plan, and the upcoming appointments outside it (at most 50, soonest first). */
export const workingPlanAnswer = z.object({
  week: z.record(z.enum(WEEKDAYS), z.array(z.string())),
  visitMinutes: z.number().int(),
  minimumNoticeHours: z.number().int(),
  bookingHorizonDays: z.number().int(),
  outsidePlan,
});
export type WorkingPlanAnswer = z.infer<typeof workingPlanAnswer>;
export type Closure = z.infer<typeof closure>;

/**
 * The 409 of POST /doctor/absences and POST /admin/closures without cancelAppointments (code
 * appointments_in_period): the period's soonest appointments (at most 50) and how many it holds.
 */
export const periodConflict = z.object({
  message: z.string(),
  code: z.literal("appointments_in_period"),
  appointments: z.array(periodAppointment),
  total: z.number().int(),
});

/** What a period change cancelled (none unless asked): the soonest (at most 50), and how many in all. */
const cancelled = { cancelled: z.array(periodAppointment), cancelledTotal: z.number().int() };
/** POST /doctor/absences (201): the absence, and the appointments it cancelled. */
export const createdAbsence = z.object({ absence, ...cancelled });
/** POST /admin/closures (201): the closed day, and the appointments it cancelled. */
export const createdClosure = z.object({ closure, ...cancelled });

/** DELETE /doctor/absences/{id} and /admin/closures/{id}. */
export const removed = z.object({ message: z.string() });
