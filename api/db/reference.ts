// Reference data every installation needs (production too): countries, cities, specialities.
// Idempotent: inserts what is missing, never duplicates.
import { sql } from "drizzle-orm";
import type { Db } from "./index.ts";
import { cities, countries, specialities } from "./schema.ts";

export const COUNTRIES: { code: string; name: string; cities: string[] }[] = [
  {
    code: "CM",
    name: "Cameroon",
    cities: [
      "Douala",
      "Yaoundé",
      "Bamenda",
      "Bafoussam",
      "Garoua",
      "Maroua",
      "Ngaoundéré",
      "Bertoua",
      "Buea",
      "Limbe",
      "Kribi",
      "Ebolowa",
    ],
  },
  { code: "GA", name: "Gabon", cities: ["Libreville", "Port-Gentil", "Franceville"] },
  { code: "TD", name: "Chad", cities: ["N'Djamena", "Moundou", "Sarh"] },
  { code: "CF", name: "Central African Republic", cities: ["Bangui", "Berbérati"] },
  { code: "CG", name: "Republic of the Congo", cities: ["Brazzaville", "Pointe-Noire"] },
  { code: "GQ", name: "Equatorial Guinea", cities: ["Malabo", "Bata"] },
  { code: "NG", name: "Nigeria", cities: ["Lagos", "Abuja", "Calabar"] },
];

export const SPECIALITIES: { name: string; nameFr: string; icon: string; isGeneral?: boolean }[] = [
  { name: "General practice", nameFr: "Médecine générale", icon: "stethoscope", isGeneral: true },
  { name: "Cardiology", nameFr: "Cardiologie", icon: "heart" },
  { name: "Dermatology", nameFr: "Dermatologie", icon: "skin" },
  { name: "Pediatrics", nameFr: "Pédiatrie", icon: "baby" },
  { name: "Gynecology", nameFr: "Gynécologie", icon: "female" },
  { name: "Ophthalmology", nameFr: "Ophtalmologie", icon: "eye" },
  { name: "Dentistry", nameFr: "Dentisterie", icon: "tooth" },
  { name: "Neurology", nameFr: "Neurologie", icon: "brain" },
  { name: "Psychiatry", nameFr: "Psychiatrie", icon: "mind" },
  { name: "Orthopedics", nameFr: "Orthopédie", icon: "bone" },
  { name: "ENT", nameFr: "ORL", icon: "ear" },
  { name: "Internal medicine", nameFr: "Médecine interne", icon: "stethoscope" },
];

export async function seedReferenceData(db: Db) {
  for (const c of COUNTRIES) {
    await db.insert(countries).values({ code: c.code, name: c.name }).onConflictDoNothing();
    const [country] = await db.select().from(countries).where(sql`${countries.code} = ${c.code}`);
    await db
      .insert(cities)
      .values(c.cities.map((name) => ({ countryId: country.id, name })))
      .onConflictDoNothing();
  }
  await db
    .insert(specialities)
    .values(
      SPECIALITIES.map((s) => ({ name: s.name, nameFr: s.nameFr, icon: s.icon, isGeneral: s.isGeneral ?? false })),
    )
    .onConflictDoNothing();
}
