// What a doctor may see and do (docs/product.md): appointments assigned to them, and open
// requests (category random, no doctor yet) of their specialities, or all of them if they have
// none. Only verified doctors answer open requests or change appointments.
import { and, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { prepared } from "../db/prepared.ts";
import { appointments, doctorSpecialities, doctors } from "../db/schema.ts";
import { forbidden, notFound } from "../http.ts";
import type { DoctorVerification } from "../../contract/constants.ts";

export interface DoctorAccess {
  id: string;
  verification: DoctorVerification;
  specialityIds: number[];
}

// One statement (every doctor call makes it), prepared once: the state and the specialities together.
const doctorAccess = prepared("doctor_access", (db) =>
  db
    .select({
      verification: doctors.verification,
      specialityIds: sql<
        number[] | null
      >`(select array_agg(${doctorSpecialities.specialityId}) from ${doctorSpecialities} where ${doctorSpecialities.doctorId} = ${doctors.userId})`,
    })
    .from(doctors)
    .where(eq(doctors.userId, sql.placeholder("userId"))),
);

export async function loadDoctorAccess(db: Db, userId: string): Promise<DoctorAccess> {
  const [doctor] = await doctorAccess(db, { userId });
  if (!doctor) throw notFound("Doctor not found");
  return { id: userId, verification: doctor.verification, specialityIds: (doctor.specialityIds ?? []).map(Number) };
}

const doctorUnverified = () => forbidden("Your account is awaiting verification", "doctor_unverified");

export function requireVerified(doctor: DoctorAccess) {
  if (doctor.verification !== "verified") throw doctorUnverified();
}

/** Statuses in which an open request still takes proposals. */
export const OPEN_STATUSES = ["pending", "proposed"] as const;

/** An open request of a speciality this doctor practises (any status, any time). */
export function isOpenRequestFor(
  doctor: DoctorAccess,
  row: { category: string; doctorId: string | null; specialityId: number | null },
): boolean {
  if (row.category !== "random" || row.doctorId !== null) return false;
  return (
    doctor.specialityIds.length === 0 || (row.specialityId !== null && doctor.specialityIds.includes(row.specialityId))
  );
}

/**
 * SQL for the open requests a doctor may answer now: still taking proposals and in the future.
 * An unverified doctor sees none (their registration has not been checked: no patient data yet).
 */
export function answerableRequests(doctor: DoctorAccess, now = new Date()): SQL {
  return and(
    eq(appointments.category, "random"),
    isNull(appointments.doctorId),
    inArray(appointments.status, [...OPEN_STATUSES]),
    gt(appointments.startsAt, now),
    doctor.specialityIds.length ? inArray(appointments.specialityId, doctor.specialityIds) : undefined,
    doctor.verification === "verified" ? undefined : sql`false`,
  )!;
}
