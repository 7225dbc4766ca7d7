// A working plan's day as times of the clock (docs/product.md, Availability): the start times of its
// visits, HH:MM in the clinic's zone, on a 5-minute grid between 06:00 and 22:00, each visit ending
// before the next starts. Plain functions without zod: the API's schema (contract/availability.ts)
// and the Availability page (in the browser too) apply the same rules.
import { PLAN_DAY_END, PLAN_DAY_START, PLAN_GRID_MINUTES, VISIT_MINUTES_MAX, VISIT_MINUTES_MIN } from "./constants.ts";

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an HH:MM time; NaN for anything else. */
export function minutesOf(time: string): number {
  const match = CLOCK.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}

/** HH:MM of minutes after midnight. */
const clockOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Whether `time` is a start a plan may hold: HH:MM on the grid, its visit of `visitMinutes` within the day. */
function isPlanStart(time: string, visitMinutes: number): boolean {
  const m = minutesOf(time);
  return m % PLAN_GRID_MINUTES === 0 && m >= minutesOf(PLAN_DAY_START) && m + visitMinutes <= minutesOf(PLAN_DAY_END);
}

/** Whether `minutes` is a visit length a plan may have. */
export const isVisitLength = (minutes: number) =>
  Number.isInteger(minutes) && minutes >= VISIT_MINUTES_MIN && minutes <= VISIT_MINUTES_MAX;

/** What is wrong with one day's starts, in order; null when the day is a valid plan. */
export type DayProblem = { kind: "off_grid"; time: string } | { kind: "overlap"; time: string; previous: string };

export function dayProblem(starts: readonly string[], visitMinutes: number): DayProblem | null {
  const sorted = [...new Set(starts)].sort();
  for (const time of sorted) if (!isPlanStart(time, visitMinutes)) return { kind: "off_grid", time };
  for (let i = 1; i < sorted.length; i++) {
    if (minutesOf(sorted[i]!) - minutesOf(sorted[i - 1]!) < visitMinutes)
      return { kind: "overlap", time: sorted[i]!, previous: sorted[i - 1]! };
  }
  return null;
}

/** A period of work (from, to: HH:MM) cut into visits of `visitMinutes`: the starts of every visit that ends by `to`. */
export function startsOfPeriod(from: string, to: string, visitMinutes: number): string[] {
  const starts: string[] = [];
  for (let m = minutesOf(from); m + visitMinutes <= minutesOf(to); m += visitMinutes) starts.push(clockOf(m));
  return starts;
}

/** The end (HH:MM) of a visit that starts at `time`. */
export const endOf = (time: string, visitMinutes: number) => clockOf(minutesOf(time) + visitMinutes);

/**
 * The periods (from, to) a day's starts make, back to back visits grouped: how the Availability page
 * shows a saved plan. `startsOfPeriod` of each period gives the starts again.
 */
export function periodsOf(starts: readonly string[], visitMinutes: number): { from: string; to: string }[] {
  const periods: { from: string; to: string }[] = [];
  for (const time of [...new Set(starts)].sort()) {
    const last = periods.at(-1);
    if (last && last.to === time) last.to = endOf(time, visitMinutes);
    else periods.push({ from: time, to: endOf(time, visitMinutes) });
  }
  return periods;
}
