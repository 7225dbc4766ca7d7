// No slot hoarding (docs/product.md, Booking limits): a patient booking for themselves, directly or by
// accepting a proposal, holds at most `perDoctor` upcoming appointments with one doctor and `total`
// in all, and never two at one start time. The front desk, booking on a patient's behalf, does not
// call this: the limits guard the calendar from self-service accounts, not the clinic's own staff.
import { and, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments, users } from "../db/schema.ts";
import { conflict } from "../http.ts";

/** BOOKING_LIMIT_PER_DOCTOR and BOOKING_LIMIT_TOTAL (config.ts). */
export interface BookingLimits {
  perDoctor: number;
  total: number;
}

/**
 * Refuses with 409 a booking by `patientId` with `doctorId` at `startsAt` that would break the
 * limits. What counts: the patient's pending or confirmed appointments with a doctor whose start is
 * after `now` (open requests hold no doctor's slot, so they count once a proposal is accepted).
 *
 * Call it inside the booking's transaction, before the row is written: it first locks the patient's
 * row, so two bookings by one patient take turns and the second counts the first (each statement
 * reads what committed before it started, hence the lock and the count are two statements).
 */
export async function requireWithinBookingLimits(
  tx: Db,
  limits: BookingLimits,
  booking: { patientId: string; doctorId: string; startsAt: Date; now?: Date },
): Promise<void> {
  // NO KEY UPDATE, not UPDATE: rows that merely reference the patient (their notices, a
  // doctor's consultation record) need not wait for the booking.
  await tx.select({ id: users.id }).from(users).where(eq(users.id, booking.patientId)).for("no key update");
  const [held] = await tx
    .select({
      withDoctor: sql<number>`count(*) filter (where ${appointments.doctorId} = ${booking.doctorId})`.mapWith(Number),
      total: sql<number>`count(*)`.mapWith(Number),
      sameTime: sql<boolean>`coalesce(bool_or(${appointments.startsAt} = ${booking.startsAt.toISOString()}::timestamptz), false)`,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientId, booking.patientId),
        isNotNull(appointments.doctorId),
        // The statuses that hold a doctor's slot (booking.ts ACTIVE_STATUSES, which imports this module).
        inArray(appointments.status, ["pending", "confirmed"]),
        gt(appointments.startsAt, booking.now ?? new Date()),
      ),
    );
  if (held.sameTime) throw conflict("You already have an appointment at this time", "booking_same_time");
  if (held.withDoctor >= limits.perDoctor)
    throw conflict("You already hold the most upcoming appointments allowed with this doctor", "booking_limit_doctor");
  if (held.total >= limits.total)
    throw conflict("You already hold the most upcoming appointments allowed", "booking_limit_total");
}
