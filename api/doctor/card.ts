// A doctor as patients see it (docs/product.md, Data "Doctor"): the search results, the book dialog
// and the proposals panel all show this card, with the fee that booking would fix.
import { eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/index.ts";
import { cities, countries, doctors, users } from "../db/schema.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import { specialitiesOf, type SpecialityBadge } from "../speciality/badges.ts";
import { consultationFee } from "../speciality/fee.ts";
import type { DoctorCard } from "../../contract/doctor.ts";

const doctorCity = alias(cities, "doctor_city");
const doctorCountry = alias(countries, "doctor_country");

/** Columns of one card row; joins users, doctors, city and country. */
function selectDoctorRows(db: Db) {
  return db
    .select({
      id: users.id,
      username: users.username,
      avatarUrl: users.avatarUrl,
      deletedAt: users.deletedAt,
      contact: doctors.contact,
      dutyHospital: doctors.dutyHospital,
      startYear: doctors.startYear,
      biography: doctors.biography,
      cityId: doctorCity.id,
      cityName: doctorCity.name,
      countryId: doctorCountry.id,
      countryName: doctorCountry.name,
      countryCode: doctorCountry.code,
    })
    .from(users)
    .innerJoin(doctors, eq(doctors.userId, users.id))
    .leftJoin(doctorCity, eq(doctorCity.id, users.cityId))
    .leftJoin(doctorCountry, eq(doctorCountry.id, users.countryId));
}

export type DoctorRow = Awaited<ReturnType<ReturnType<typeof selectDoctorRows>["execute"]>>[number];

/** A card without its next free slot, which only the search computes (search.ts). */
type Card = Omit<DoctorCard, "nextSlot">;

/** The card of one row, given its doctor's specialities. */
export function doctorCard(row: DoctorRow, badges: SpecialityBadge[]): Card {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    username: deleted ? DELETED_USER : row.username,
    avatarUrl: deleted ? null : row.avatarUrl,
    specialities: badges,
    City: row.cityId === null ? null : { id: row.cityId, name: row.cityName! },
    Country: row.countryId === null ? null : { id: row.countryId, name: row.countryName!, code: row.countryCode! },
    duty_hospital: row.dutyHospital,
    contact: deleted ? null : row.contact,
    startYear: row.startYear,
    biography: deleted ? null : row.biography,
    fee: consultationFee(badges),
  };
}

/** Cards for the given rows, in their order. */
async function cardsFor(db: Db, rows: DoctorRow[]): Promise<Card[]> {
  const badges = await specialitiesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => doctorCard(r, badges.get(r.id) ?? []));
}

/** Cards of the given doctors (deleted ones included, shown as 'Deleted user'), by id. */
export async function loadDoctorCards(db: Db, ids: string[]): Promise<Map<string, Card>> {
  if (ids.length === 0) return new Map();
  const cards = await cardsFor(db, await selectDoctorRows(db).where(inArray(users.id, [...new Set(ids)])));
  return new Map(cards.map((c) => [c.id, c]));
}

/** The fee booking this doctor would fix now (docs/product.md). */
export async function feeOfDoctor(db: Db, doctorId: string): Promise<number> {
  const badges = await specialitiesOf(db, [doctorId]);
  return consultationFee(badges.get(doctorId) ?? []);
}
