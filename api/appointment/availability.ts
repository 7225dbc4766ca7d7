// The one availability rule (docs/product.md, Availability): whether a doctor's slot can be taken
// now, and if not, why. Everything that takes a slot asks it here (a direct booking, a reschedule, a
// proposal on an open request, the acceptance of a proposal), GET /appointment/slots shows it, and
// the search's next free slot is its first yes: one SQL expression, `verdicts`, decides for all.
//
// Concurrency: a slot's decision reads the doctor's plan and absences and the clinic's closed days.
// Whatever takes a slot first takes a shared lock on the doctor's plan row and on the clinic's
// calendar (an advisory lock); a change of plan, a new absence or a new closed day takes them
// exclusively. So a booking and an absence (or closure) over it never both pass: the later one
// waits, then sees the other. The unique index appointments_doctor_slot_active still decides
// between two bookings of one slot (booking.ts, claimingSlot).
import { sql, type SQL } from "drizzle-orm";
import { SLOTS } from "../../contract/constants.ts";
import type { DaySlot } from "../../contract/appointment.ts";
import type { SlotRefusal } from "../../contract/availability.ts";
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
};

const slotRefused = (reason: SlotRefusal) => conflict(REFUSAL_MESSAGES[reason], reason);

interface Verdict {
  time: (typeof SLOTS)[number];
  reason: SlotRefusal | null;
}

/**
 * Who asks: the minimum notice binds patients only; the front desk books a patient who is on the
 * phone or at the counter up to the slot's start (docs/product.md, The front desk).
 */
export interface RuleOptions {
  noticeExempt?: boolean;
}

/**
 * The rule itself: the reason the slot `c` (its doctor_id, day, slot and starts_at) of the doctor
 * with working plan `wp` cannot be taken at `now`, null when it can. The cheap checks on the row
 * come first, the lookups last, and the CASE stops at the first that holds, in the order of
 * SLOT_REFUSALS. A walk-in holds no slot.
 */
function reasonOf(now: Date, { noticeExempt = false }: RuleOptions = {}): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const notice = noticeExempt ? sql`interval '0'` : sql`wp.minimum_notice_hours * interval '1 hour'`;
  return sql`case
        when c.starts_at <= ${at} then 'past_date'
        when coalesce(jsonb_array_length(wp.week -> to_char(c.day, 'FMday')), 0) = 0 then 'day_not_worked'
        when not coalesce(wp.week -> to_char(c.day, 'FMday') @> to_jsonb(c.slot), false) then 'slot_not_offered'
        when c.starts_at < ${at} + ${notice} then 'notice_too_short'
        when c.day > ${clinicToday(now)}::date + wp.booking_horizon_days then 'beyond_horizon'
        when exists (select 1 from clinic_closures k where k.date = c.day) then 'clinic_closed'
        when exists (select 1 from doctor_absences a where a.doctor_id = c.doctor_id and a.starts_on <= c.day and a.ends_on >= c.day) then 'doctor_absent'
        when exists (select 1 from appointments ap where ap.doctor_id = c.doctor_id and ap.starts_at = c.starts_at and ap.status in ('pending', 'confirmed') and not ap.walk_in) then 'slot_taken'
      end`;
}

const slotArray = () => sql`${sql.param([...SLOTS])}::text[]`;

/** The slot `c` of day `day` (a date) and slot `slot` (HH:mm text) of the plan `wp`'s doctor, as lateral joins. */
const slotRow = (day: SQL, slot: SQL) =>
  sql`cross join lateral (select wp.doctor_id, ${day} as day, ${slot} as slot) c0
    cross join lateral (select c0.doctor_id, c0.day, c0.slot, (c0.day + c0.slot::time) at time zone ${clinicTimeZone()} as starts_at) c`;

/** Every slot of doctor `doctorId` on `date`, with its reason (`reasonOf`) and its place `ord` in the day. */
function verdictsOfDay(doctorId: string, date: string, now: Date, options?: RuleOptions): SQL {
  return sql`select c.slot as time, s.ord, ${reasonOf(now, options)} as reason
    from working_plans wp
    cross join lateral unnest(${slotArray()}) with ordinality s(slot, ord)
    ${slotRow(sql`${date}::date`, sql`s.slot`)}
    where wp.doctor_id = ${doctorId}::uuid`;
}

/** The six slots of a doctor's day, each with the reason it cannot be taken now (GET /appointment/slots). */
export async function slotsOfDay(db: Db, doctorId: string, date: string, now = new Date()): Promise<DaySlot[]> {
  const rows = rowsOf<Verdict>(await db.execute(sql`${verdictsOfDay(doctorId, date, now)} order by s.ord`));
  const reasons = new Map(rows.map((r) => [r.time, r.reason]));
  return SLOTS.map((time) => {
    // No row: the doctor has no plan (not a doctor's id); every slot is off their plan.
    const reason = reasons.has(time) ? reasons.get(time)! : "day_not_worked";
    return { time, iso: clinicParts(zonedInstant(date, time)).iso, available: reason === null, reason };
  });
}

/**
 * Refuses with 409 and the rule's code unless the doctor's slot at `startsAt` can be taken now.
 * Call it inside the transaction that takes the slot: it holds the shared locks until that
 * transaction ends. `startsAt` is one of the six slots (parseSlot) or an appointment's own start;
 * `taken` the caller's own words for a slot already taken; `options` who asks (RuleOptions).
 */
export async function requireBookable(
  tx: Db,
  doctorId: string,
  startsAt: Date,
  now = new Date(),
  taken = () => slotRefused("slot_taken"),
  options?: RuleOptions,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${CLINIC_CALENDAR_LOCK})`);
  await tx.execute(sql`select 1 from working_plans where doctor_id = ${doctorId} for share`);
  const { date, time } = clinicParts(startsAt);
  const [row] = rowsOf<Verdict>(
    await tx.execute(
      sql`select v.reason from (${verdictsOfDay(doctorId, date, now, options)}) v where v.time = ${time}`,
    ),
  );
  // A doctor without a plan row does not exist as a doctor; a time off the grid is not a slot.
  const reason = row ? row.reason : "slot_not_offered";
  if (reason) throw reason === "slot_taken" ? taken() : slotRefused(reason);
}

/**
 * Which of `doctorIds` could be given their slot at `startsAt` now, by the rule (a patient's
 * proposals: accepting one the rule refuses would be refused), in one statement.
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
    await db.execute(sql`select wp.doctor_id as "doctorId" from working_plans wp
      ${slotRow(sql`${date}::date`, sql`${time}::text`)}
      where wp.doctor_id = any(${sql.param(doctorIds)}::uuid[]) and (${reasonOf(now)}) is null`),
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
 * The walk itself: the first slot the doctor of id `doctorId` (a column of the outer query) can be
 * booked at now, within their horizon, as a scalar subquery: `{date, time, validUntil}` (time
 * HH:mm; validUntil the instant its notice runs out) or null. The slots are walked in order, one
 * step each, and the walk stops at the first free one: most doctors have one within a few slots,
 * and a set of every slot of the horizon (546 with the defaults, each with its lookups) cost 30 ms
 * a page on PGlite, 100 on PostgreSQL.
 */
function walkToFreeSlot(doctorId: SQL, now: Date): SQL {
  const today = sql`${clinicToday(now)}::date`;
  const n = SLOTS.length;
  const step = sql`(select ${reasonOf(now)} from working_plans wp ${slotRow(sql`${today} + (w.k + 1) / ${n}`, sql`(${slotArray()})[(w.k + 1) % ${n} + 1]`)}
    where wp.doctor_id = ${doctorId})`;
  const lastStep = sql`(select (booking_horizon_days + 1) * ${n} - 1 from working_plans where doctor_id = ${doctorId})`;
  return sql`(with recursive walk(k, reason) as (
      select -1, 'start'
      union all
      -- A doctor without a plan has no last step: the walk ends at once.
      select w.k + 1, ${step} from walk w where w.reason is not null and w.k + 1 <= ${lastStep}
    )
    select json_build_object('date', to_char(f.day, 'YYYY-MM-DD'), 'time', f.slot,
        'validUntil', (f.day + f.slot::time) at time zone ${clinicTimeZone()} - wp.minimum_notice_hours * interval '1 hour')
      from (select ${today} + k / ${n} as day, (${slotArray()})[k % ${n} + 1] as slot from walk where reason is null limit 1) f
      join working_plans wp on wp.doctor_id = ${doctorId})`;
}

/**
 * The next free slot of the doctor of id `doctorId` (a column of the outer query: the search's
 * page) as the search last found it, as a scalar subquery: `{kept, slot}`, or null for no doctor
 * (no plan). The answer found last is kept in `next_free_slots` and given again while nothing it
 * depends on has changed (the doctor's calendar version and the clinic's, bumped by triggers in the
 * transaction of any change, and the clinic's time zone) and while time alone leaves it right: a
 * slot refused before it stays refused as time passes (started, too soon), so only the found
 * slot's notice running out, or a new day entering the horizon when none was found, can change it.
 * Not kept: `nextFreeSlots` walks.
 */
export function nextFreeSlotOf(doctorId: SQL, now = new Date()): SQL {
  return sql`(select json_build_object('kept', h.kept,
      'slot', case when h.kept and n.slot_date is not null
        then json_build_object('date', to_char(n.slot_date, 'YYYY-MM-DD'), 'time', n.slot_time) end)
    from next_free_slots n cross join clinic_calendar cv
    cross join lateral (select coalesce(n.found_version = n.calendar_version and n.found_clinic_version = cv.version
      and n.found_zone = ${clinicTimeZone()} and n.valid_until > ${now.toISOString()}::timestamptz, false) as kept) h
    where n.doctor_id = ${doctorId})`;
}

type FoundSlot = { date: string; time: string } | null;

/** What `nextFreeSlotOf` gives for a doctor. */
export interface KeptSlot {
  kept: boolean;
  slot: FoundSlot;
}

/**
 * The next free slot of each doctor of `found` (what `nextFreeSlotOf` gave): the kept ones as they
 * are, the others walked by the rule (`walkToFreeSlot`) in one statement, which keeps what it finds
 * for the versions it read. A change committed meanwhile (a booking, an absence) has bumped a
 * version, and that answer is then not kept. Best effort: a row another transaction is changing is
 * skipped, never waited for (its change bumps the version anyway). A walk planned in the page's
 * statement cost its planning there even when every answer was kept (2.6 ms a page on PGlite).
 * The walks are driven by the ids (an array's rows are estimated well): over a join the planner
 * guessed thousands of rows, and PostgreSQL compiled the statement with JIT (0.4 s).
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
        select n.doctor_id, n.calendar_version, (select version from clinic_calendar) as clinic_version,
          ${walkToFreeSlot(sql`n.doctor_id`, now)} as slot
        from unnest(${ids}) i(id) join next_free_slots n on n.doctor_id = i.id
      ), free as (
        select doctor_id from next_free_slots where doctor_id = any(${ids}) for update skip locked
      ), kept as (
        update next_free_slots n set found_version = w.calendar_version, found_clinic_version = w.clinic_version,
          found_zone = ${clinicTimeZone()},
          slot_date = (w.slot ->> 'date')::date, slot_time = w.slot ->> 'time',
          valid_until = coalesce((w.slot ->> 'validUntil')::timestamptz, ${tomorrow}::timestamptz)
        from walked w join free f on f.doctor_id = w.doctor_id
        where n.doctor_id = w.doctor_id and n.calendar_version = w.calendar_version
      )
      select doctor_id as "doctorId", slot from walked`),
  );
  for (const { doctorId, slot } of walked) slots.set(doctorId, slot && { date: slot.date, time: slot.time });
  return slots;
}

/** The wire's next slot (contract/doctor.ts) of what `nextFreeSlotOf` found. */
export const nextSlotOnWire = (found: FoundSlot) =>
  found && { date: found.date, time: clinicParts(zonedInstant(found.date, found.time)).iso };
