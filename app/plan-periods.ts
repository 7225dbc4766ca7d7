// The Availability page's periods of work without zod (the page renders the start times they give
// before any schema loads: app/availability-schemas.ts holds the form's schema).
import { PLAN_DAY_END, PLAN_DAY_START, PLAN_GRID_MINUTES } from "../contract/constants.ts";
import { isVisitLength, minutesOf, startsOfPeriod } from "../contract/visit-plan.ts";

/** The most periods of work one day holds on the form (a morning, an afternoon, an evening, and room to spare). */
export const MAX_PERIODS = 6;

/** A period of work as typed: from and to (HH:MM), either left empty on a row not used. */
export interface PeriodValue {
  from?: string;
  to?: string;
}

/** Whether `time` is a time of the plan's day: HH:MM on the 5-minute grid, from 06:00 to 22:00. */
export const onGrid = (time: string) => {
  const m = minutesOf(time);
  return m % PLAN_GRID_MINUTES === 0 && m >= minutesOf(PLAN_DAY_START) && m <= minutesOf(PLAN_DAY_END);
};

/** A day's periods as the form keeps them: the rows used, in the order of the day. */
const usedPeriods = (periods: readonly PeriodValue[]) =>
  periods
    .filter((p): p is { from: string; to: string } => Boolean(p.from && p.to))
    .sort((a, b) => a.from.localeCompare(b.from));

/** The start times of a day's periods cut into visits (those that fit; none for a period not whole). */
export function startsOfDay(periods: readonly PeriodValue[], visitMinutes: number): string[] {
  if (!isVisitLength(visitMinutes)) return [];
  return usedPeriods(periods)
    .filter((p) => onGrid(p.from) && onGrid(p.to))
    .flatMap((p) => startsOfPeriod(p.from, p.to, visitMinutes));
}
