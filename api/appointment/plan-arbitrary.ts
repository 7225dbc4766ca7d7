// Random working plans for the property tests of the availability rule (availability-model.test.ts,
// next-slot.test.ts): a visit length from 5 to 120 minutes and, per weekday, starts on the 5-minute
// grid from 06:00, each at least a visit after the one before and the last ending by 22:00. Written
// with plain arithmetic, not with contract/visit-plan.ts, so the tests do not share the code they check.
import fc from "fast-check";
import { WEEKDAYS, type Weekday } from "../../contract/constants.ts";

export interface RandomPlan {
  week: Record<Weekday, string[]>;
  visitMinutes: number;
  minimumNoticeHours: number;
  bookingHorizonDays: number;
}

const FIRST = 6 * 60;
const LAST_END = 22 * 60;
export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A day's starts for visits of `length`: grid points drawn at random, kept when they fit after the previous. */
function dayStarts(length: number) {
  return fc.uniqueArray(fc.integer({ min: 0, max: (LAST_END - FIRST) / 5 - 1 }), { maxLength: 40 }).map((points) => {
    const starts: number[] = [];
    for (const m of points.map((p) => FIRST + p * 5).sort((a, b) => a - b)) {
      if (m + length <= LAST_END && (starts.length === 0 || m - starts.at(-1)! >= length)) starts.push(m);
    }
    return starts.map(hhmm);
  });
}

/** A plan with horizons up to `maxHorizon` days; a weekday is off about a third of the time. */
export const randomPlan = (maxHorizon: number): fc.Arbitrary<RandomPlan> =>
  fc.noBias(fc.integer({ min: 5, max: 120 })).chain((visitMinutes) =>
    fc.record({
      week: fc.record(
        Object.fromEntries(
          WEEKDAYS.map((day) => [
            day,
            fc.oneof(fc.constant([] as string[]), dayStarts(visitMinutes), dayStarts(visitMinutes)),
          ]),
        ) as Record<Weekday, fc.Arbitrary<string[]>>,
      ),
      visitMinutes: fc.constant(visitMinutes),
      minimumNoticeHours: fc.noBias(fc.integer({ min: 0, max: 72 })),
      // Unbiased: fast-check favours small numbers, and a horizon of a few days would hide the rest.
      bookingHorizonDays: fc.noBias(fc.integer({ min: 1, max: maxHorizon })),
    }),
  );
