// The appointments a new absence or closed day falls on (docs/product.md, Availability): the pending
// and confirmed ones of the period are answered 409 (so nobody loses an appointment unawares), or,
// when the caller asks, cancelled in the same transaction, each patient told why on their bell and
// by mail in their language.
import { and, asc, eq, gte, inArray, isNotNull, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PeriodAppointment } from "../../contract/availability.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import type { Db } from "../db/index.ts";
import { appointments, users } from "../db/schema.ts";
import { ApiError } from "../http.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { tellOfChange } from "../notifications.ts";
import { clinicParts, zonedInstant } from "../time.ts";
import { ACTIVE_STATUSES } from "./booking.ts";

/**
 * The most appointments an answer lists (the 409's `appointments`, the 201's `cancelled`), the
 * soonest; `total` and `cancelledTotal` count them all. A closed day over a large clinic can hold
 * thousands, and the page that shows them says how many more there are.
 */
const PERIOD_LIST_MAX = 50;

/** The wire form of what a period change cancelled: the first PERIOD_LIST_MAX and how many in all. */
export const cancelledList = (cancelled: PeriodAppointment[]) => ({
  cancelled: cancelled.slice(0, PERIOD_LIST_MAX),
  cancelledTotal: cancelled.length,
});

const doctorUser = alias(users, "period_doctor");
const patientUser = alias(users, "period_patient");

/** The day after a YYYY-MM-DD date. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const personOf = (id: string | null, username: string | null, avatarUrl: string | null, deletedAt: Date | null) =>
  id === null ? null : { id, username: deletedAt ? DELETED_USER : username!, avatarUrl: deletedAt ? null : avatarUrl };

interface Period {
  from: string;
  to: string;
  /** One doctor's appointments (an absence); every doctor's without it (a closed day). */
  doctorId?: string;
}

/** The pending and confirmed appointments with a doctor from `from` to `to` (clinic days, both included), locked, soonest first. */
async function lockPeriodAppointments(tx: Db, { from, to, doctorId }: Period) {
  const rows = await tx
    .select({
      id: appointments.id,
      status: appointments.status,
      startsAt: appointments.startsAt,
      patientId: appointments.patientId,
      doctorId: appointments.doctorId,
      doctorName: doctorUser.username,
      doctorAvatar: doctorUser.avatarUrl,
      doctorDeletedAt: doctorUser.deletedAt,
      patientName: patientUser.username,
      patientAvatar: patientUser.avatarUrl,
      patientDeletedAt: patientUser.deletedAt,
    })
    .from(appointments)
    .leftJoin(doctorUser, eq(doctorUser.id, appointments.doctorId))
    .leftJoin(patientUser, eq(patientUser.id, appointments.patientId))
    .where(
      and(
        doctorId ? eq(appointments.doctorId, doctorId) : isNotNull(appointments.doctorId),
        inArray(appointments.status, [...ACTIVE_STATUSES]),
        gte(appointments.startsAt, zonedInstant(from, "00:00")),
        lt(appointments.startsAt, zonedInstant(nextDay(to), "00:00")),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .for("update", { of: appointments });
  return rows.map((r) => ({
    patientId: r.patientId,
    wire: {
      id: r.id,
      status: r.status as PeriodAppointment["status"],
      date: clinicParts(r.startsAt).date,
      time: clinicParts(r.startsAt).iso,
      Doctor: personOf(r.doctorId, r.doctorName, r.doctorAvatar, r.doctorDeletedAt),
      Patient: personOf(r.patientId, r.patientName, r.patientAvatar, r.patientDeletedAt),
    } satisfies PeriodAppointment,
  }));
}

export interface PeriodChange extends Period {
  /** Whether the caller asked for the period's appointments to be cancelled. */
  cancelAppointments: boolean;
  actorId: string;
  /** What the patients are told: the doctor is away, or the clinic is closed; `reason` as given. */
  change: "cancelledForAbsence" | "cancelledForClosure";
  reason: string | null;
}

/**
 * Within `tx`: the 409 appointments_in_period listing the period's appointments (the first
 * PERIOD_LIST_MAX, and their total), or, with `cancelAppointments`, each one cancelled and its
 * patient told. Returns the cancelled ones and their patients (for the audit trail); the caller
 * wakes the outbox after its commit.
 */
export async function clearPeriod(tx: Db, mailer: OutboxMailer, p: PeriodChange) {
  const found = await lockPeriodAppointments(tx, p);
  if (found.length === 0) return { cancelled: [], patientIds: [] };
  if (!p.cancelAppointments) {
    throw new ApiError(409, "Appointments fall in this period", "appointments_in_period", {
      appointments: found.slice(0, PERIOD_LIST_MAX).map((f) => f.wire),
      total: found.length,
    });
  }
  const now = new Date();
  await tx
    .update(appointments)
    .set({ status: "cancelled", updatedAt: now })
    .where(
      inArray(
        appointments.id,
        found.map((f) => f.wire.id),
      ),
    );
  for (const { wire, patientId } of found) {
    await tellOfChange(tx, mailer, wire.id, p.change, { actorId: p.actorId, to: patientId, reason: p.reason });
  }
  return { cancelled: found.map((f) => f.wire), patientIds: found.map((f) => f.patientId) };
}
