// The specialities a doctor practises, as the cards, the admin's list and booking's fee read them.
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { doctorSpecialities, specialities } from "../db/schema.ts";

export interface SpecialityBadge {
  id: number;
  name: string;
  nameFr: string;
  isGeneral: boolean;
}

/** Specialities of several doctors in one query (no N+1), by doctor id. */
export async function specialitiesOf(db: Db, doctorIds: string[]): Promise<Map<string, SpecialityBadge[]>> {
  const byDoctor = new Map<string, SpecialityBadge[]>(doctorIds.map((id) => [id, []]));
  if (doctorIds.length === 0) return byDoctor;
  const rows = await db
    .select({
      doctorId: doctorSpecialities.doctorId,
      id: specialities.id,
      name: specialities.name,
      nameFr: specialities.nameFr,
      isGeneral: specialities.isGeneral,
    })
    .from(doctorSpecialities)
    .innerJoin(specialities, eq(specialities.id, doctorSpecialities.specialityId))
    .where(inArray(doctorSpecialities.doctorId, doctorIds))
    .orderBy(asc(specialities.name));
  for (const { doctorId, ...badge } of rows) byDoctor.get(doctorId)?.push(badge);
  return byDoctor;
}
