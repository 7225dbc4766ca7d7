// What the database's refusals mean to the API. Unique indexes are the guards against races (two
// bookings of one slot, two proposals of one doctor, two registrations of one address): the loser's
// insert fails with a unique violation, which the caller answers as the race's outcome.

/**
 * A test of `err`, or an error it wraps (drizzle wraps the driver's), for a violation of SQLSTATE
 * `state` of the index or constraint `constraint`. node-postgres names the constraint; a driver that
 * does not (an error without one) counts as a match.
 */
const violationOf =
  (state: string) =>
  (err: unknown, constraint: string): boolean => {
    const found = withSqlState(err, state) as { constraint?: unknown } | undefined;
    return !!found && (found.constraint === undefined || found.constraint === constraint);
  };

/** A unique violation (two bookings of one start, two registrations of one address). */
export const isUniqueViolation = violationOf("23505");
/** An exclusion violation (two visits of a doctor that overlap: migration 0020). */
export const isExclusionViolation = violationOf("23P01");

/** The error of SQLSTATE `code` among `err` and the errors it wraps (drizzle wraps the driver's). */
export function withSqlState(err: unknown, code: string): object | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return e;
  }
  return undefined;
}
