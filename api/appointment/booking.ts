// Creating appointments (docs/product.md): direct bookings with a verified doctor and open
// requests without one. A booking must pass the availability rule (availability.ts); the database's
// unique index appointments_doctor_slot_active is the only guard against double booking, so
// concurrent attempts yield one success and 409s.
import { and, eq, inArray, ne } from "drizzle-orm";
import type { AppointmentDetails, DirectBookingBody, OpenRequestBody } from "../../contract/appointment.ts";
import type { Db } from "../db/index.ts";
import { isExclusionViolation, isUniqueViolation } from "../db-errors.ts";
import { appointments, cities, countries, doctors, specialities, users } from "../db/schema.ts";
import { ApiError, badRequest, conflict, forbidden } from "../http.ts";
import { tellOfChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { specialitiesOf } from "../speciality/badges.ts";
import { consultationFee } from "../speciality/fee.ts";
import { parseSlot } from "../time.ts";
import { requireBookable, slotRefused } from "./availability.ts";
import { type BookingLimits, requireWithinBookingLimits } from "./booking-limits.ts";
import { notifyOpenRequest } from "../notification/data.ts";

/** Statuses that hold a doctor's slot (the partial unique index's predicate). */
export const ACTIVE_STATUSES = ["pending", "confirmed"] as const;

const slotTaken = () => conflict("This time slot is no longer available", "slot_taken");

/**
 * Which of these doctors hold the instant with an active appointment (other than `exceptId`): a
 * doctor may neither propose on nor be given such a slot.
 */
export async function doctorsBusyAt(
  db: Db,
  doctorIds: string[],
  startsAt: Date,
  exceptId?: string,
): Promise<Set<string>> {
  if (doctorIds.length === 0) return new Set();
  const rows = await db
    .select({ doctorId: appointments.doctorId })
    .from(appointments)
    .where(
      and(
        inArray(appointments.doctorId, doctorIds),
        eq(appointments.startsAt, startsAt),
        inArray(appointments.status, [...ACTIVE_STATUSES]),
        eq(appointments.walkIn, false),
        exceptId ? ne(appointments.id, exceptId) : undefined,
      ),
    );
  return new Set(rows.map((r) => r.doctorId!));
}

/**
 * Runs an insert or update that may take a doctor's time; a lost race becomes 409 slot_taken (the
 * same start) or visit_overlap (a start inside a visit booked meanwhile).
 */
export async function claimingSlot<T>(work: () => Promise<T>, taken: () => ApiError = slotTaken): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, "appointments_doctor_slot_active")) throw taken();
    if (isExclusionViolation(err, "appointments_no_overlap")) throw slotRefused("visit_overlap");
    throw err;
  }
}

/** The details as stored: the fields given, none undefined. */
const storedDetails = (details: AppointmentDetails | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(details ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;

/**
 * Who books for the patient, when not the patient: the front desk (docs/product.md, The front
 * desk). Its booking is confirmed at once, the minimum notice does not bind it, and the patient is
 * told instead of the doctor.
 */
export interface OnBehalf {
  deskId: string;
}

/**
 * A direct booking: the server decides status (pending), category (direct), price (the fee rule)
 * and, for in-person visits, the place (the doctor's duty hospital, city and country). The doctor's
 * notice is queued with it. `limits`: the patient's booking limits (booking-limits.ts); null only
 * for a booking made on the patient's behalf by the clinic's staff, which they do not bind.
 */
export async function bookDirect(
  db: Db,
  mailer: OutboxMailer,
  patientId: string,
  body: DirectBookingBody,
  limits: BookingLimits | null,
  onBehalf?: OnBehalf,
): Promise<string> {
  const { type } = body;
  const startsAt = parseSlot(body.date, body.time);
  const details = storedDetails(body.details);
  let specialityId = body.specialityId;

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
    const practised = badges.length
      ? badges.some((b) => b.id === specialityId)
      : await specialityExists(db, specialityId);
    if (!practised) throw badRequest("This doctor does not practise this speciality", "invalid_speciality");
  } else if (badges.length === 1) {
    specialityId = badges[0].id;
  }

  const inPerson = type === "in-person";
  const id = await claimingSlot(() =>
    db.transaction(async (tx) => {
      if (limits) await requireWithinBookingLimits(tx, limits, { patientId, doctorId: doctor.id, startsAt });
      await requireBookable(tx, doctor.id, startsAt, { noticeExempt: Boolean(onBehalf) });
      const [row] = await tx
        .insert(appointments)
        .values({
          patientId,
          doctorId: doctor.id,
          specialityId: specialityId ?? null,
          status: onBehalf ? "confirmed" : "pending",
          bookedBy: onBehalf?.deskId ?? null,
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
      if (onBehalf) await tellOfChange(tx, mailer, row.id, "bookedAtDesk", { actorId: onBehalf.deskId, to: patientId });
      else await tellOfChange(tx, mailer, row.id, "booked", { actorId: patientId, to: doctor.id });
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
export async function createOpenRequest(db: Db, patientId: string, body: OpenRequestBody): Promise<string> {
  const { specialityId, type } = body;
  const startsAt = parseSlot(body.date, body.time, { sixSlots: true });
  const details = storedDetails(body.details);
  const cityId = body.city ?? body.cityId;
  let countryId = body.country ?? body.countryId;

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

  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(appointments)
      .values({
        patientId,
        doctorId: null,
        specialityId,
        status: "pending",
        type,
        category: "random",
        startsAt,
        place: type === "in-person" ? (body.place ?? null) : null,
        cityId: cityId ?? null,
        countryId: countryId ?? null,
        price: null,
        details,
      })
      .returning({ id: appointments.id });
    await notifyOpenRequest(tx, row.id, patientId, specialityId);
    return row.id;
  });
}
