// The doctor's own profile (docs/product.md, Data 'Doctor profile', GET /doctor/doctor-info and
// PUT /doctor/me). Specialities are read-only here: the admin assigns them at verification.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { doctors, users } from "../db/schema.ts";
import { badRequest, notFound } from "../http.ts";
import { profilePhone } from "../phone.ts";
import { placeOfUpdate } from "../profile.ts";
import type { DoctorProfile, DoctorProfileChanges } from "../../contract/doctor-profile.ts";

export async function loadDoctorProfile(db: Db, userId: string): Promise<DoctorProfile> {
  const user = await db.query.users.findFirst({
    where: (u) => and(eq(u.id, userId), isNull(u.deletedAt)),
    with: {
      country: true,
      city: true,
      doctor: { with: { specialities: { with: { speciality: true } } } },
    },
  });
  if (!user?.doctor) throw notFound("Profile not found");
  const d = user.doctor;
  return {
    id: user.id,
    username: user.username,
    // Doctors register with an address.
    email: user.email ?? "",
    contact: d.contact,
    gender: user.gender,
    serial_number: d.serialNumber,
    duty_hospital: d.dutyHospital,
    biography: d.biography,
    startYear: d.startYear,
    countryId: user.countryId,
    cityId: user.cityId,
    Country: user.country && { id: user.country.id, name: user.country.name, code: user.country.code },
    City: user.city && { id: user.city.id, name: user.city.name },
    specialities: d.specialities
      .map((s) => ({ id: s.speciality.id, name: s.speciality.name, nameFr: s.speciality.nameFr }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    avatarUrl: user.avatarUrl,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt?.toISOString() ?? null,
    verification: d.verification,
    // Extension: the admin's reason, so a rejected doctor is told why (docs/product.md).
    rejectionReason: d.verification === "rejected" ? d.rejectionReason : null,
  };
}

/** Fields left out stay as they are; changing the country drops a city outside it. */
export async function updateDoctorProfile(db: Db, userId: string, changes: DoctorProfileChanges) {
  await db.transaction(async (tx) => {
    const { countryId, cityId } = await placeOfUpdate(tx, userId, changes);
    const contact = await profilePhone(tx, changes.contact, countryId, () =>
      badRequest("Invalid contact format", "invalid_contact"),
    );
    const now = new Date();
    await tx
      .update(users)
      .set({ username: changes.username, gender: changes.gender, countryId, cityId, updatedAt: now })
      .where(eq(users.id, userId));
    const doctorFields = {
      serialNumber: changes.serial_number,
      contact,
      dutyHospital: changes.duty_hospital,
      biography: changes.biography,
    };
    if (Object.values(doctorFields).some((v) => v !== undefined)) {
      await tx.update(doctors).set(doctorFields).where(eq(doctors.userId, userId));
    }
  });
  return loadDoctorProfile(db, userId);
}
