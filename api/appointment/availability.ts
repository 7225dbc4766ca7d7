// The one availability rule (docs/product.md, Availability): whether a visit of a doctor can start at
// a given time now, and if not, why. Everything that takes a time asks it here (a direct booking, a
// reschedule, the front desk's booking, a proposal on an open request, the acceptance of a
// proposal), GET /appointment/slots shows it, and the search's next free slot is its first yes. One
// SQL expression, `refusal`, decides for all of them.
//
// The words used below:
// - a doctor's *plan* (table working_plans): per weekday the start times of their visits, the
//   length of a visit, the minimum notice and the booking horizon;
// - a *candidate*: one start the rule is asked about (the doctor, the day, the time of the clock,
//   the instant it starts and the instant its visit would end);
// - a *visit* (table appointments): a pending or confirmed appointment with a doctor; it keeps the
//   length it was booked with, so a visit booked under an older plan blocks the starts it overlaps.
//   A walk-in holds no slot.
//
// Concurrency: a decision reads the doctor's plan and absences and the clinic's closed days.
// Whatever takes a time first takes a shared lock on the doctor's plan row and on the clinic's
// calendar (an advisory lock); a change of plan, a new absence or a new closed day takes them
// exclusively. So a booking and an absence (or closure) over it never both pass: the later one
// waits, then sees the other. Between two bookings, the database decides: the unique index
// appointments_doctor_slot_active (one visit per start) and the exclusion constraint
// appointments_no_overlap (no two visits of a doctor that overlap), answered by claimingSlot.
import { sql, type SQL } from "drizzle-orm";
import { VISIT_MINUTES_MAX } from "../../contract/constants.ts";
import type { DaySlot } from "../../contract/appointment.ts";
import type { SlotRefusal } from "../../contract/availability.ts";
import { endOf } from "../../contract/visit-plan.ts";
import type { Db } from "../db/index.ts";
import { conflict } from "../http.ts";
import { rowsOf } from "../query.ts";
import { clinicDays, clinicParts, clinicTimeZone, clinicToday, zonedInstant } from "../time.ts";

/** The advisory lock of the clinic's calendar (closed days): any constant no other lock uses. */
const CLINIC_CALENDAR_LOCK = 0x68626361;

const REFUSAL_MESSAGES: Record<SlotRefusal, string> = {
  past_date: "That slot has already started",
  day_not_worked: "The doctor does not work on this day",
  slot_not_offered: "The doctor does not offer this time on this day",
  notice_too_short: "This slot starts too soon to be booked",
  beyond_horizon: "This slot is too far ahead to be booked",
  clinic_closed: "The clinic is closed on this day",
  doctor_absent: "The doctor is away on this day",
  slot_taken: "This time slot is no longer available",
  visit_overlap: "This time falls inside another visit of the doctor",
};

export const slotRefused = (reason: SlotRefusal) => conflict(REFUSAL_MESSAGES[reason], reason);

/** Who asks, and about what (requireBookable). */
export interface RuleOptions {
  /** The clock; now unless a test says otherwise. */
  now?: Date;
  /**
   * The minimum notice binds patients only: the front desk books a patient who is on the phone or
   * at the counter up to the start (docs/product.md, The front desk).
   */
  noticeExempt?: boolean;
  /** The appointment being moved (a reschedule): its own visit blocks nothing. */
  moving?: string;
  /** The caller's own words for a start already taken (a proposal's acceptance has its own). */
  taken?: () => Error;
}

/** The weekday's list of starts in the plan, for the day `day` (a date expression). */
const startsOfWeekday = (day: SQL) => sql`plan.week -> to_char(${day}, 'FMday')`;

/**
 * The reason the candidate (alias `candidate`) of the plan (alias `plan`) cannot be booked at `now`,
 * null when it can. The CASE stops at the first reason that holds, in the order of SLOT_REFUSALS:
 * the cheap checks of the row first, the lookups last.
 */
function refusal(now: Date, { noticeExempt = false, moving }: RuleOptions = {}): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const notice = noticeExempt ? sql`interval '0'` : sql`plan.minimum_notice_hours * interval '1 hour'`;
  const dayStarts = startsOfWeekday(sql`candidate.day`);
  // The visits that count: active ones of this doctor, not walk-ins, not the one being moved.
  const visit = sql`visit.doctor_id = candidate.doctor_id and visit.status in ('pending', 'confirmed')
    and not visit.walk_in ${moving ? sql`and visit.id <> ${moving}::uuid` : sql``}`;
  return sql`case
      when candidate.starts_at <= ${at} then 'past_date'
      when coalesce(jsonb_array_length(${dayStarts}), 0) = 0 then 'day_not_worked'
      when not coalesce(${dayStarts} @> to_jsonb(candidate.start_time), false) then 'slot_not_offered'
      when candidate.starts_at < ${at} + ${notice} then 'notice_too_short'
      when candidate.day > ${clinicToday(now)}::date + plan.booking_horizon_days then 'beyond_horizon'
      when exists (select 1 from clinic_closures closure where closure.date = candidate.day) then 'clinic_closed'
      when exists (select 1 from doctor_absences absence where absence.doctor_id = candidate.doctor_id
        and absence.starts_on <= candidate.day and absence.ends_on >= candidate.day) then 'doctor_absent'
      when exists (select 1 from appointments visit where ${visit} and visit.starts_at = candidate.starts_at) then 'slot_taken'
      -- A visit that began up to the longest visit length before the candidate's start may still run:
      -- the bound keeps the lookup a range of the index on (doctor_id, starts_at).
      when exists (select 1 from appointments visit where ${visit}
        and visit.starts_at > candidate.starts_at - interval '${sql.raw(String(VISIT_MINUTES_MAX))} minutes'
        and visit.starts_at < candidate.ends_at and visit.ends_at > candidate.starts_at) then 'visit_overlap'
    end`;
}

/**
 * The candidate at `day` (a date expression) and `startTime` (HH:MM text expression) of the plan
 * `plan`'s doctor, as a lateral join named `candidate`.
 */
const candidateAt = (day: SQL, startTime: SQL) =>
  sql`cross join lateral (select plan.doctor_id, ${day} as day, ${startTime} as start_time) asked
    cross join lateral (select asked.*, (asked.day + asked.start_time::time) at time zone ${clinicTimeZone()} as starts_at) instant
    cross join lateral (select instant.*, instant.starts_at + plan.visit_minutes * interval '1 minute' as ends_at) candidate`;

interface StartVerdict {
  time: string;
  visitMinutes: number;
  reason: SlotRefusal | null;
}

/** GET /appointment/slots: the starts of the doctor's plan on `date`, each with the reason it cannot be booked now. */
export async function slotsOfDay(db: Db, doctorId: string, date: string, now = new Date()): Promise<DaySlot[]> {
  const day = sql`${date}::date`;
  const rows = rowsOf<StartVerdict>(
    await db.execute(sql`select candidate.start_time as time, plan.visit_minutes as "visitMinutes", ${refusal(now)} as reason
      from working_plans plan
      cross join lateral jsonb_array_elements_text(${startsOfWeekday(day)}) with ordinality listed(start_time, position)
      ${candidateAt(day, sql`listed.start_time`)}
      where plan.doctor_id = ${doctorId}::uuid
      order by listed.position`),
  );
  return rows.map(({ time, visitMinutes, reason }) => ({
    time,
    end: endOf(time, visitMinutes),
    iso: clinicParts(zonedInstant(date, time)).iso,
    available: reason === null,
    reason,
  }));
}

/**
 * Refuses with 409 and the rule's code unless the doctor's visit can start at `startsAt` now. Call
 * it inside the transaction that takes the time: it holds the shared locks until that transaction
 * ends.
 */
export async function requireBookable(
  tx: Db,
  doctorId: string,
  startsAt: Date,
  options: RuleOptions = {},
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${CLINIC_CALENDAR_LOCK})`);
  await tx.execute(sql`select 1 from working_plans where doctor_id = ${doctorId} for share`);
  const { date, time } = clinicParts(startsAt);
  const [row] = rowsOf<{ reason: SlotRefusal | null }>(
    await tx.execute(sql`select ${refusal(options.now ?? new Date(), options)} as reason
      from working_plans plan ${candidateAt(sql`${date}::date`, sql`${time}::text`)}
      where plan.doctor_id = ${doctorId}::uuid`),
  );
  // A doctor without a plan row does not exist as a doctor: nothing is offered.
  const reason = row ? row.reason : "slot_not_offered";
  if (!reason) return;
  throw reason === "slot_taken" && options.taken ? options.taken() : slotRefused(reason);
}

/**
 * Which of `doctorIds` could start a visit at `startsAt` now, by the rule (a patient's proposals:
 * accepting one the rule refuses would be refused), in one statement.
 */
export async function bookableDoctors(
  db: Db,
  doctorIds: string[],
  startsAt: Date,
  now = new Date(),
): Promise<Set<string>> {
  if (doctorIds.length === 0) return new Set();
  const { date, time } = clinicParts(startsAt);
  const rows = rowsOf<{ doctorId: string }>(
    await db.execute(sql`select plan.doctor_id as "doctorId" from working_plans plan
      ${candidateAt(sql`${date}::date`, sql`${time}::text`)}
      where plan.doctor_id = any(${sql.param(doctorIds)}::uuid[]) and (${refusal(now)}) is null`),
  );
  return new Set(rows.map((r) => r.doctorId));
}

/** Takes the doctor's plan row for a change of plan or a new absence (see the header). */
export async function lockDoctorCalendar(tx: Db, doctorId: string): Promise<void> {
  await tx.execute(sql`select 1 from working_plans where doctor_id = ${doctorId} for update`);
}

/** Takes the clinic's calendar for a new closed day (see the header). */
export async function lockClinicCalendar(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CLINIC_CALENDAR_LOCK})`);
}

/**
 * The walk itself: the first start the doctor of id `doctorId` (a column of the outer query) can be
 * booked at now, within their horizon, as a scalar subquery: `{date, time, validUntil}` (time HH:MM;
 * validUntil the instant its notice runs out) or null.
 *
 * The walk goes day by day from today, and stops at the first day with a free start: most doctors
 * have one within a day or two. A day is looked into only when the doctor works that weekday and
 * neither a closed day nor an absence covers it (the rule would refuse each of its starts for that);
 * within a day, the starts are tried in the plan's order and the first the rule accepts is the
 * answer. Building every start of the horizon as one set and keeping the first cost tens of
 * milliseconds a page (bench/README.md).
 */
function walkToFreeStart(doctorId: SQL, now: Date): SQL {
  const today = sql`${clinicToday(now)}::date`;
  const day = sql`walk.day + 1`;
  const dayStarts = startsOfWeekday(day);
  const firstFreeStart = sql`(select candidate.start_time
      from jsonb_array_elements_text(${dayStarts}) with ordinality listed(start_time, position)
      ${candidateAt(day, sql`listed.start_time`)}
      where (${refusal(now)}) is null
      order by listed.position limit 1)`;
  const dayOpen = sql`coalesce(jsonb_array_length(${dayStarts}), 0) > 0
      and not exists (select 1 from clinic_closures closure where closure.date = ${day})
      and not exists (select 1 from doctor_absences absence where absence.doctor_id = plan.doctor_id
        and absence.starts_on <= ${day} and absence.ends_on >= ${day})`;
  return sql`(with recursive walk(day, found) as (
      select ${today} - 1, null::text
      union all
      select ${day}, (select case when ${dayOpen} then ${firstFreeStart} end from working_plans plan where plan.doctor_id = ${doctorId})
      from walk
      -- A doctor without a plan has no horizon: the walk ends at once.
      where walk.found is null
        and ${day} <= ${today} + (select booking_horizon_days from working_plans where doctor_id = ${doctorId})
    )
    select json_build_object('date', to_char(walk.day, 'YYYY-MM-DD'), 'time', walk.found,
        'validUntil', (walk.day + walk.found::time) at time zone ${clinicTimeZone()} - plan.minimum_notice_hours * interval '1 hour')
      from walk join working_plans plan on plan.doctor_id = ${doctorId}
      where walk.found is not null)`;
}

/**
 * The next free start of the doctor of id `doctorId` (a column of the outer query: the search's
 * page) as the search last found it, as a scalar subquery: `{kept, slot}`, or null for no doctor
 * (no plan). The answer found last is kept in `next_free_slots` and given again while nothing it
 * depends on has changed (the doctor's calendar version and the clinic's, bumped by triggers in the
 * transaction of any change, and the clinic's time zone) and while time alone leaves it right: a
 * start refused before stays refused as time passes (started, too soon), so only the found start's
 * notice running out, or a new day entering the horizon when none was found, can change it.
 * Not kept: `nextFreeSlots` walks.
 */
export function nextFreeSlotOf(doctorId: SQL, now = new Date()): SQL {
  return sql`(select json_build_object('kept', kept.valid,
      'slot', case when kept.valid and answer.slot_date is not null
        then json_build_object('date', to_char(answer.slot_date, 'YYYY-MM-DD'), 'time', answer.slot_time) end)
    from next_free_slots answer cross join clinic_calendar clinic
    cross join lateral (select coalesce(answer.found_version = answer.calendar_version and answer.found_clinic_version = clinic.version
      and answer.found_zone = ${clinicTimeZone()} and answer.valid_until > ${now.toISOString()}::timestamptz, false) as valid) kept
    where answer.doctor_id = ${doctorId})`;
}

type FoundSlot = { date: string; time: string } | null;

/** What `nextFreeSlotOf` gives for a doctor. */
export interface KeptSlot {
  kept: boolean;
  slot: FoundSlot;
}

/**
 * The next free start of each doctor of `found` (what `nextFreeSlotOf` gave): the kept ones as they
 * are, the others walked by the rule (`walkToFreeStart`) in one statement, which keeps what it finds
 * for the versions it read. A change committed meanwhile (a booking, an absence) has bumped a
 * version, and that answer is then not kept. Best effort: a row another transaction is changing is
 * skipped, never waited for (its change bumps the version anyway). The walks run in a statement of
 * their own: planned inside the page's statement, they cost their planning even when every answer
 * was kept. They are driven by the ids (an array's rows are estimated well): over a join the
 * planner guessed thousands of rows, and PostgreSQL compiled the statement with JIT.
 */
export async function nextFreeSlots(
  db: Db,
  found: { doctorId: string; next: KeptSlot | null }[],
  now = new Date(),
): Promise<Map<string, FoundSlot>> {
  const slots = new Map(found.map(({ doctorId, next }) => [doctorId, next?.slot ?? null]));
  const walk = found.filter((f) => f.next && !f.next.kept).map((f) => f.doctorId);
  if (walk.length === 0) return slots;
  // None found: a new day enters the horizon at the clinic's next midnight.
  const tomorrow = clinicDays(clinicToday(now)).end.toISOString();
  const ids = sql`${sql.param(walk)}::uuid[]`;
  const walked = rowsOf<{ doctorId: string; slot: FoundSlot }>(
    await db.execute(sql`with walked as (
        select answer.doctor_id, answer.calendar_version, (select version from clinic_calendar) as clinic_version,
          ${walkToFreeStart(sql`answer.doctor_id`, now)} as slot
        from unnest(${ids}) walked_id(id) join next_free_slots answer on answer.doctor_id = walked_id.id
      ), unlocked as (
        select doctor_id from next_free_slots where doctor_id = any(${ids}) for update skip locked
      ), kept as (
        update next_free_slots answer set found_version = walked.calendar_version, found_clinic_version = walked.clinic_version,
          found_zone = ${clinicTimeZone()},
          slot_date = (walked.slot ->> 'date')::date, slot_time = walked.slot ->> 'time',
          valid_until = coalesce((walked.slot ->> 'validUntil')::timestamptz, ${tomorrow}::timestamptz)
        from walked join unlocked on unlocked.doctor_id = walked.doctor_id
        where answer.doctor_id = walked.doctor_id and answer.calendar_version = walked.calendar_version
      )
      select doctor_id as "doctorId", slot from walked`),
  );
  for (const { doctorId, slot } of walked) slots.set(doctorId, slot && { date: slot.date, time: slot.time });
  return slots;
}

/** The wire's next slot (contract/doctor.ts) of what `nextFreeSlotOf` found. */
export const nextSlotOnWire = (found: FoundSlot) =>
  found && { date: found.date, time: clinicParts(zonedInstant(found.date, found.time)).iso };
