// Rows the admin commands' tests start from (api/admin/commands.test.ts, api/cli.test.ts).
import { eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { doctorSpecialities, doctors, patients, specialities, users } from "../db/schema.ts";

/** A pending doctor's registration, as the register route leaves it. */
export async function addPendingDoctor(db: Db, email: string, serialNumber: string) {
  const [user] = await db
    .insert(users)
    .values({ email, username: "Dr Pending", passwordHash: "x", role: "doctor", otpVerified: true })
    .returning();
  await db.insert(doctors).values({ userId: user.id, serialNumber, verification: "pending" });
  return user.id;
}

export async function addPatient(db: Db, email: string) {
  const [user] = await db
    .insert(users)
    .values({ email, username: "History Patient", passwordHash: "x", role: "patient", otpVerified: true })
    .returning();
  await db.insert(patients).values({ userId: user.id });
  return user.id;
}

export async function specialityNames(db: Db, doctorId: string) {
  const names = await db
    .select({ name: specialities.name })
    .from(doctorSpecialities)
    .innerJoin(specialities, eq(specialities.id, doctorSpecialities.specialityId))
    .where(eq(doctorSpecialities.doctorId, doctorId));
  return names.map((n) => n.name).sort();
}
