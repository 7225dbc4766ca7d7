// A new absence or closed day, the same change on two scopes (docs/product.md, Availability): one
// doctor's calendar or the clinic's. The pending and confirmed appointments of the period are
// answered 409 (so nobody loses an appointment unawares), or, when the caller asks, cancelled in
// the same transaction, each patient told why on their bell, by mail and by text in their language.
import { and, asc, eq, gte, inArray, isNotNull, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { PeriodAppointment } from "../../contract/availability.ts";
import { DELETED_USER, MAX_ABSENCE_DAYS } from "../../contract/constants.ts";
import { daysFrom } from "../../contract/days.ts";
import { auditAppointments } from "../audit.ts";
import type { Db } from "../db/index.ts";
import { appointments, users } from "../db/schema.ts";
import { ApiError, badRequest } from "../http.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { tellOfCancellations } from "../notifications.ts";
import { inIds } from "../query.ts";
import { clinicDays, clinicParts, clinicToday } from "../time.ts";
import { ACTIVE_STATUSES } from "./booking.ts";

/**
 * The most appointments an answer lists (the 409's `appointments`, the 201's `cancelled`), the
 * soonest; `total` and `cancelledTotal` count them all. A closed day over a large clinic can hold
 * thousands, and the page that shows them says how many more there are.
 */
export const PERIOD_LIST_MAX = 50;

const doctorUser = alias(users, "period_doctor");
const patientUser = alias(users, "period_patient");

const personOf = (id: string | null, username: string | null, avatarUrl: string | null, deletedAt: Date | null) =>
  id === null ? null : { id, username: deletedAt ? DELETED_USER : username!, avatarUrl: deletedAt ? null : avatarUrl };

interface Period {
  from: string;
  to: string;
  /** One doctor's appointments (an absence); every doctor's without it (a closed day). */
  doctorId?: string;
}

/**
 * The pending and confirmed appointments with a doctor from `from` to `to` (clinic days, both
 * included), to be locked, soonest first. A closed day's are found by the index
 * appointments_active_starts, an absence's by the doctor's.
 */
/** The columns `appointmentOfPeriod` reads, with the joins `withPeople` adds. */
const periodAppointmentColumns = {
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
};

/** Appointments with their doctor and patient, in the shape `periodAppointmentColumns` names. */
export const appointmentsWithPeople = (tx: Db) =>
  tx
    .select(periodAppointmentColumns)
    .from(appointments)
    .leftJoin(doctorUser, eq(doctorUser.id, appointments.doctorId))
    .leftJoin(patientUser, eq(patientUser.id, appointments.patientId));

type PeriodRow = Awaited<ReturnType<typeof appointmentsWithPeople>>[number];

/** A row of `appointmentsWithPeople` as the wire lists it. */
export const appointmentOfPeriod = (r: PeriodRow): PeriodAppointment => ({
  id: r.id,
  status: r.status as PeriodAppointment["status"],
  date: clinicParts(r.startsAt).date,
  time: clinicParts(r.startsAt).iso,
  Doctor: personOf(r.doctorId, r.doctorName, r.doctorAvatar, r.doctorDeletedAt),
  Patient: personOf(r.patientId, r.patientName, r.patientAvatar, r.patientDeletedAt),
});

/**
 * The pending and confirmed appointments with a doctor from `from` to `to` (clinic days, both
 * included), to be locked, soonest first. A closed day's are found by the index
 * appointments_active_starts, an absence's by the doctor's.
 */
export function periodAppointments(tx: Db, { from, to, doctorId }: Period) {
  return appointmentsWithPeople(tx)
    .where(
      and(
        doctorId ? eq(appointments.doctorId, doctorId) : isNotNull(appointments.doctorId),
        inArray(appointments.status, [...ACTIVE_STATUSES]),
        gte(appointments.startsAt, clinicDays(from, to).start),
        lt(appointments.startsAt, clinicDays(from, to).end),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .for("update", { of: appointments });
}

async function lockPeriodAppointments(tx: Db, period: Period): Promise<PeriodAppointment[]> {
  return (await periodAppointments(tx, period)).map(appointmentOfPeriod);
}

export interface PeriodChange extends Period {
  /** Whether the caller asked for the period's appointments to be cancelled. */
  cancelAppointments: boolean;
  actorId: string;
  /** What the patients are told: the doctor is away, or the clinic is closed; `reason` as given. */
  change: "cancelledForAbsence" | "cancelledForClosure";
  reason: string | null;
}

/** What differs between an absence (one doctor's calendar) and a closed day (the clinic's). */
export interface PeriodScope<Row> {
  /** Takes the calendar the period closes, until the transaction ends. */
  lock(tx: Db): Promise<void>;
  /** Refuses the period before anything is written: too many to come, or the same day twice. */
  check(tx: Db): Promise<void>;
  /** Writes the absence or the closed day itself. */
  record(tx: Db): Promise<Row>;
}

/**
 * An absence or a closed day: refused when already over or longer than MAX_ABSENCE_DAYS, and over
 * booked appointments either refused (409 appointments_in_period, the first PERIOD_LIST_MAX and
 * their total) or, with `cancelAppointments`, each one cancelled, its patient told (the bell, a
 * mail, a text) and the change audited. All of it is one transaction, whose statements do not grow
 * in number with the appointments: the calendar lock it holds stops every booking meanwhile.
 */
export async function closePeriod<Row>(db: Db, mailer: OutboxMailer, p: PeriodChange, scope: PeriodScope<Row>) {
  if (p.from > p.to) throw badRequest("The period must end on or after its first day", "invalid_period");
  if (p.to < clinicToday()) throw badRequest("The period is already over", "past_date");
  if (daysFrom(p.from, p.to) + 1 > MAX_ABSENCE_DAYS)
    throw badRequest(`A period covers at most ${MAX_ABSENCE_DAYS} days`, "invalid_period");
  const result = await db.transaction(async (tx) => {
    await scope.lock(tx);
    await scope.check(tx);
    const cancelled = await cancelPeriod(tx, mailer, p);
    return { row: await scope.record(tx), cancelled };
  });
  if (result.cancelled.length) mailer.wake();
  return {
    row: result.row,
    cancelled: result.cancelled.slice(0, PERIOD_LIST_MAX),
    cancelledTotal: result.cancelled.length,
  };
}

/** Within `tx`: the 409 listing the period's appointments, or with `cancelAppointments` all of them cancelled and told. */
async function cancelPeriod(tx: Db, mailer: OutboxMailer, p: PeriodChange): Promise<PeriodAppointment[]> {
  const found = await lockPeriodAppointments(tx, p);
  if (found.length === 0) return [];
  if (!p.cancelAppointments) {
    throw new ApiError(409, "Appointments fall in this period", "appointments_in_period", {
      appointments: found.slice(0, PERIOD_LIST_MAX),
      total: found.length,
    });
  }
  const ids = found.map((f) => f.id);
  await tx.update(appointments).set({ status: "cancelled", updatedAt: new Date() }).where(inIds(appointments.id, ids));
  await tellOfCancellations(tx, mailer, ids, p.change, { actorId: p.actorId, reason: p.reason });
  await auditAppointments(tx, p.actorId, ids);
  return found;
}
