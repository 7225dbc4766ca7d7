// Creating appointments (docs/product.md): direct bookings with a verified doctor and open
// requests without one. The database's unique index appointments_doctor_slot_active is the only
// guard against double booking, so concurrent attempts yield one success and 409s.
import { and, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/index.ts";
import { appointments, cities, countries, doctors, specialities, users } from "../db/schema.ts";
import { ApiError, badRequest, conflict, forbidden } from "../http.ts";
import { queueAppointmentChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { specialitiesOf } from "../speciality/badges.ts";
import { consultationFee } from "../speciality/fee.ts";
import { blank, optionalChoice } from "../query.ts";
import { clinicParts, parseSlot, SLOTS, zonedInstant } from "../time.ts";

/** Statuses that hold a doctor's slot (the partial unique index's predicate). */
export const ACTIVE_STATUSES = ["pending", "confirmed"] as const;

const slotTaken = () => conflict("This time slot is no longer available", "slot_taken");

/**
 * Which of these doctors hold the instant with an active appointment (other than `exceptId`): a
 * doctor may neither propose on nor be given such a slot.
 */
export async function doctorsBusyAt(db: Db, doctorIds: string[], startsAt: Date, exceptId?: string): Promise<Set<string>> {
  if (doctorIds.length === 0) return new Set();
  const rows = await db
    .select({ doctorId: appointments.doctorId })
    .from(appointments)
    .where(
      and(
        inArray(appointments.doctorId, doctorIds),
        eq(appointments.startsAt, startsAt),
        inArray(appointments.status, [...ACTIVE_STATUSES]),
        exceptId ? ne(appointments.id, exceptId) : undefined,
      ),
    );
  return new Set(rows.map((r) => r.doctorId!));
}

/**
 * True when `err` (or an error it wraps, as drizzle does) is a unique violation (SQLSTATE 23505)
 * of the one-appointment-per-doctor-per-slot index. PGlite and node-postgres both set `code`.
 */
export function isSlotConflict(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || constraint === "appointments_doctor_slot_active";
  }
  return false;
}

/** Runs an insert or update that may take a doctor's slot; a lost race becomes 409 slot_taken. */
export async function claimingSlot<T>(work: () => Promise<T>, taken: () => ApiError = slotTaken): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isSlotConflict(err)) throw taken();
    throw err;
  }
}

const APPOINTMENT_TYPES = ["online", "in-person"] as const;
type AppointmentType = (typeof APPOINTMENT_TYPES)[number];

function requireType(value: unknown): AppointmentType {
  if (value === undefined || value === null || value === "") throw badRequest("Type is required", "type_required");
  if (!(APPOINTMENT_TYPES as readonly unknown[]).includes(value)) throw badRequest("Invalid appointment type", "invalid_type");
  return value as AppointmentType;
}

const text = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : blank(v)),
    z.string(`Invalid ${label}`).max(max, `The ${label} must be at most ${max} characters`).optional(),
  );

/** Online details and the patient's reason (docs/product.md, Data); unknown keys dropped. */
const appointmentDetails = z.object({
  deviceType: optionalChoice(["computer", "tablet", "phone"], "device type"),
  internetQuality: optionalChoice(["excellent", "good", "fair"], "connection quality"),
  videoPreference: optionalChoice(["zoom", "teams", "meet", "webex", "any"], "video platform"),
  residenceAddress: text(300, "residence address"),
  reason: text(1000, "reason"),
});

function parseDetails(input: unknown): Record<string, string> {
  if (input === undefined || input === null) return {};
  const result = appointmentDetails.safeParse(input);
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? "Invalid details", "invalid_details");
  return Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

function optionalInt(value: unknown, message: string, code: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw badRequest(message, code);
  return n;
}

const placeText = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 200) || null : null);

/** A real calendar day as YYYY-MM-DD (parseSlot lets 2026-02-31 roll over into March). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** parseSlot, refusing impossible dates and wall-clock times (25:99) that it would roll over. */
function parseRequestedSlot(date: unknown, time: unknown): Date {
  if (date !== undefined && !isCalendarDate(date)) throw badRequest("A valid date is required", "invalid_date");
  if (typeof time === "string" && /^\d{2}:\d{2}$/.test(time) && (Number(time.slice(0, 2)) > 23 || Number(time.slice(3)) > 59)) {
    throw badRequest("A valid time is required", "invalid_slot");
  }
  return parseSlot(date, time);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Body = Record<string, unknown>;

/**
 * A direct booking: the server decides status (pending), category (direct), price (the fee rule)
 * and, for in-person visits, the place (the doctor's duty hospital, city and country). The doctor's
 * notice is queued with it.
 */
export async function bookDirect(db: Db, mailer: OutboxMailer, patientId: string, body: Body): Promise<string> {
  const type = requireType(body.type);
  if (typeof body.doctorId !== "string" || !UUID_RE.test(body.doctorId)) throw badRequest("A doctor is required", "doctor_required");
  const startsAt = parseRequestedSlot(body.date, body.time);
  const details = parseDetails(body.details);
  let specialityId = optionalInt(body.specialityId, "Invalid speciality", "invalid_speciality");

  const [doctor] = await db
    .select({
      id: users.id,
      deletedAt: users.deletedAt,
      cityId: users.cityId,
      countryId: users.countryId,
      verification: doctors.verification,
      dutyHospital: doctors.dutyHospital,
    })
    .from(users)
    .innerJoin(doctors, eq(doctors.userId, users.id))
    .where(eq(users.id, body.doctorId));
  if (!doctor || doctor.deletedAt) throw new ApiError(404, "Doctor not found", "doctor_not_found");
  if (doctor.verification !== "verified") throw forbidden("This doctor is not yet verified", "doctor_unverified");

  const badges = (await specialitiesOf(db, [doctor.id])).get(doctor.id) ?? [];
  if (specialityId !== undefined) {
    const practised = badges.length ? badges.some((b) => b.id === specialityId) : await specialityExists(db, specialityId);
    if (!practised) throw badRequest("This doctor does not practise this speciality", "invalid_speciality");
  } else if (badges.length === 1) {
    specialityId = badges[0].id;
  }

  const inPerson = type === "in-person";
  const id = await claimingSlot(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(appointments)
        .values({
          patientId,
          doctorId: doctor.id,
          specialityId: specialityId ?? null,
          status: "pending",
          type,
          category: "direct",
          startsAt,
          place: inPerson ? doctor.dutyHospital : null,
          cityId: inPerson ? doctor.cityId : null,
          countryId: inPerson ? doctor.countryId : null,
          price: consultationFee(badges),
          details,
        })
        .returning({ id: appointments.id });
      await queueAppointmentChange(tx, mailer, row.id, "booked");
      return row.id;
    }),
  );
  mailer.wake();
  return id;
}

async function specialityExists(db: Db, id: number) {
  const [row] = await db.select({ id: specialities.id }).from(specialities).where(eq(specialities.id, id));
  return Boolean(row);
}

/**
 * An open request (category random): no doctor, status pending, at one of the six slots not yet
 * started, like a booking: once accepted it is an appointment on the doctor's slot grid (the
 * unique index and the schedule's sessions only know slots). The price is fixed on acceptance.
 */
export async function createOpenRequest(db: Db, patientId: string, body: Body): Promise<string> {
  const specialityId = optionalInt(body.specialityId, "Invalid speciality", "invalid_speciality");
  if (specialityId === undefined) throw badRequest("Speciality is required", "speciality_required");
  const type = requireType(body.type);
  const startsAt = parseRequestedSlot(body.date, body.time);
  const details = parseDetails(body.details);
  const cityId = optionalInt(body.city ?? body.cityId, "Invalid city", "invalid_city");
  let countryId = optionalInt(body.country ?? body.countryId, "Invalid country", "invalid_country");

  if (!(await specialityExists(db, specialityId))) throw badRequest("Unknown speciality", "invalid_speciality");
  if (countryId !== undefined) {
    const [country] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId));
    if (!country) throw badRequest("Unknown country", "invalid_country");
  }
  if (cityId !== undefined) {
    const [city] = await db.select({ countryId: cities.countryId }).from(cities).where(eq(cities.id, cityId));
    if (!city) throw badRequest("Unknown city", "invalid_city");
    if (countryId !== undefined && city.countryId !== countryId) {
      throw badRequest("The city does not belong to the selected country", "city_country_mismatch");
    }
    countryId = city.countryId;
  }

  const [row] = await db
    .insert(appointments)
    .values({
      patientId,
      doctorId: null,
      specialityId,
      status: "pending",
      type,
      category: "random",
      startsAt,
      place: type === "in-person" ? placeText(body.place) : null,
      cityId: cityId ?? null,
      countryId: countryId ?? null,
      price: null,
      details,
    })
    .returning({ id: appointments.id });
  return row.id;
}

/** The six slots of a doctor's day: taken by an active appointment, or already started. */
export async function slotsOfDay(db: Db, doctorId: string, date: string, now = new Date()) {
  const instants = SLOTS.map((slot) => zonedInstant(date, slot));
  const taken = await db
    .select({ startsAt: appointments.startsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.doctorId, doctorId),
        inArray(appointments.status, [...ACTIVE_STATUSES]),
        inArray(appointments.startsAt, instants),
      ),
    );
  const takenAt = new Set(taken.map((t) => t.startsAt.getTime()));
  return SLOTS.map((time, i) => ({
    time,
    iso: clinicParts(instants[i]).iso,
    available: !takenAt.has(instants[i].getTime()) && instants[i].getTime() > now.getTime(),
  }));
}
