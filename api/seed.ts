// Seeding at every start: reference data always; with DEMO=1 also the demo accounts of the README
// and a directory of verified doctors. Idempotent: only what is missing is created, and instances
// starting at once take turns (seed's lock), so restarts and several instances are safe.
import { eq, sql } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { seedReferenceData } from "./db/reference.ts";
import {
  appointments,
  cities,
  countries,
  doctorSpecialities,
  doctors,
  patients,
  specialities,
  staffDoctors,
  users,
} from "./db/schema.ts";
import { clinicToday, zonedInstant } from "./time.ts";
import { GENERAL_FEE } from "./speciality/fee.ts";
import { hashPassword } from "./auth/password.ts";

export const DEMO_PASSWORD = "Demo1234!";

// Any constant every seeding instance agrees on; it names nothing else in this database.
const SEED_LOCK = 727_301_995;

/**
 * In one transaction that first waits for the seed's advisory lock: instances starting together
 * (web workers, a rollout) seed one after the other, and each one after the first finds everything
 * there. Without it two of them both found the demo's past appointments missing and the second died
 * inserting them again.
 */
export async function seed(db: Db, { demo }: { demo: boolean }) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    await seedReferenceData(tx);
    if (demo) await seedDemo(tx);
  });
}

interface DemoDoctor {
  username: string;
  email: string;
  gender: "male" | "female";
  specialities: string[];
  city: string;
  startYear: number;
  dutyHospital: string;
  biography: string;
  verification?: "pending" | "verified";
}

const DEMO_DOCTOR: DemoDoctor = {
  username: "Demo Doctor",
  email: "doctor@example.com",
  gender: "male",
  specialities: ["General practice"],
  city: "Douala",
  startYear: 2012,
  dutyHospital: "Hôpital Laquintinie",
  biography: "General practitioner in Douala. Family medicine, chronic disease follow-up and preventive care.",
};

const PENDING_DOCTOR: DemoDoctor = {
  username: "Pending Doctor",
  email: "pending.doctor@example.com",
  gender: "female",
  specialities: [],
  city: "Yaoundé",
  startYear: 2019,
  dutyHospital: "Hôpital Central de Yaoundé",
  biography: "Recently registered; awaiting verification of the medical serial number.",
  verification: "pending",
};

// [name, gender, specialities, city, startYear, hospital, biography]
type Row = [string, "male" | "female", string[], string, number, string, string];
const DIRECTORY: Row[] = [
  [
    "Jean-Paul Mbarga",
    "male",
    ["Cardiology"],
    "Yaoundé",
    2004,
    "Hôpital Central de Yaoundé",
    "Cardiologist focused on hypertension and heart failure; runs the cardiac rehabilitation clinic.",
  ],
  [
    "Aïcha Bello",
    "female",
    ["Pediatrics"],
    "Garoua",
    2011,
    "Hôpital Régional de Garoua",
    "Paediatrician caring for newborns and children, with a special interest in malnutrition.",
  ],
  [
    "Emmanuel Fotso",
    "male",
    ["General practice"],
    "Bafoussam",
    2009,
    "Hôpital Régional de Bafoussam",
    "Family doctor for all ages: check-ups, diabetes follow-up and vaccinations.",
  ],
  [
    "Christelle Ngo Nkoulou",
    "female",
    ["Gynecology"],
    "Douala",
    2008,
    "Hôpital Gynéco-Obstétrique de Douala",
    "Gynaecologist-obstetrician: pregnancy follow-up, fertility and family planning.",
  ],
  [
    "Samuel Tabi Egbe",
    "male",
    ["Orthopedics"],
    "Buea",
    2013,
    "Buea Regional Hospital",
    "Orthopaedic surgeon treating fractures, sports injuries and joint pain.",
  ],
  [
    "Florence Ebanda",
    "female",
    ["Dermatology"],
    "Douala",
    2015,
    "Hôpital Général de Douala",
    "Dermatologist for skin, hair and nail conditions, including eczema and acne.",
  ],
  [
    "Ibrahim Oumarou",
    "male",
    ["Internal medicine"],
    "Maroua",
    2006,
    "Hôpital Régional de Maroua",
    "Internist managing diabetes, kidney disease and complex chronic conditions.",
  ],
  [
    "Brigitte Atangana",
    "female",
    ["Ophthalmology"],
    "Yaoundé",
    2010,
    "Centre Hospitalier Universitaire de Yaoundé",
    "Ophthalmologist: cataract, glaucoma and children's eye examinations.",
  ],
  [
    "Patrice Nkwain",
    "male",
    ["Psychiatry"],
    "Bamenda",
    2014,
    "Bamenda Regional Hospital",
    "Psychiatrist offering care for depression, anxiety and trauma, in English and French.",
  ],
  [
    "Solange Kamga",
    "female",
    ["Dentistry"],
    "Douala",
    2017,
    "Clinique Dentaire de Bonanjo",
    "Dentist for the whole family: check-ups, fillings and gentle care for anxious patients.",
  ],
  [
    "Hamadou Alim",
    "male",
    ["Neurology"],
    "Ngaoundéré",
    2007,
    "Hôpital Régional de Ngaoundéré",
    "Neurologist treating epilepsy, headaches and stroke recovery.",
  ],
  [
    "Mireille Essomba",
    "female",
    ["ENT"],
    "Yaoundé",
    2012,
    "Hôpital Général de Yaoundé",
    "ENT specialist for ear infections, sinus problems and hearing tests.",
  ],
  [
    "Charles Nana",
    "male",
    ["General practice"],
    "Douala",
    2016,
    "Hôpital de District de Deido",
    "General practitioner: acute illness, malaria and typhoid care, and health checks.",
  ],
  [
    "Nadège Mvondo",
    "female",
    ["Pediatrics", "General practice"],
    "Yaoundé",
    2010,
    "Centre Mère et Enfant de Yaoundé",
    "Paediatrician following children from birth to adolescence; vaccination and growth.",
  ],
  [
    "Didier Njoya",
    "male",
    ["Cardiology", "Internal medicine"],
    "Douala",
    2003,
    "Hôpital Général de Douala",
    "Cardiologist and internist; echocardiography and cardiovascular risk assessment.",
  ],
  [
    "Rose Ndive",
    "female",
    ["General practice"],
    "Limbe",
    2018,
    "Limbe Regional Hospital",
    "Family physician with a focus on women's health and prenatal care.",
  ],
  [
    "Alain Tchoupo",
    "male",
    ["Orthopedics"],
    "Yaoundé",
    2009,
    "Hôpital Central de Yaoundé",
    "Orthopaedic surgeon for back pain, arthritis and trauma surgery.",
  ],
  [
    "Hadiza Mohamadou",
    "female",
    ["Gynecology"],
    "Garoua",
    2013,
    "Hôpital Régional de Garoua",
    "Gynaecologist supporting safe pregnancies and maternal health in the North.",
  ],
  [
    "Georges Ondoa",
    "male",
    ["Internal medicine"],
    "Ebolowa",
    2005,
    "Hôpital Régional d'Ebolowa",
    "Internist for hypertension, diabetes and infectious diseases.",
  ],
  [
    "Pauline Fouda",
    "female",
    ["Dermatology"],
    "Yaoundé",
    2019,
    "Hôpital Général de Yaoundé",
    "Dermatologist treating skin infections, pigmentation disorders and allergies.",
  ],
  [
    "Eric Tanyi",
    "male",
    ["General practice"],
    "Bamenda",
    2015,
    "Bamenda Regional Hospital",
    "General practitioner: consultations for adults and children, and chronic care.",
  ],
  [
    "Vanessa Djoumessi",
    "female",
    ["Ophthalmology"],
    "Bafoussam",
    2016,
    "Hôpital Ad Lucem de Bafoussam",
    "Ophthalmologist: vision tests, glasses prescriptions and eye infections.",
  ],
  [
    "Blaise Owona",
    "male",
    ["Neurology"],
    "Yaoundé",
    2011,
    "Centre Hospitalier Universitaire de Yaoundé",
    "Neurologist for memory problems, neuropathy and movement disorders.",
  ],
  [
    "Estelle Moukoko",
    "female",
    ["Psychiatry"],
    "Douala",
    2012,
    "Hôpital Laquintinie",
    "Psychiatrist caring for mood disorders and addiction, with online consultations.",
  ],
  [
    "Martin Abega",
    "male",
    ["Dentistry"],
    "Yaoundé",
    2008,
    "Clinique Dentaire du Centre",
    "Dentist: oral surgery, dental hygiene and prosthetics.",
  ],
  [
    "Clarisse Nguefack",
    "female",
    ["ENT"],
    "Douala",
    2014,
    "Hôpital Laquintinie",
    "ENT surgeon: tonsils, sinus surgery and voice disorders.",
  ],
  [
    "Joseph Mbida",
    "male",
    ["General practice"],
    "Kribi",
    2010,
    "Hôpital de District de Kribi",
    "Family doctor in Kribi; travel medicine and care for fishermen's injuries.",
  ],
  [
    "Fadimatou Issa",
    "female",
    ["Pediatrics"],
    "Maroua",
    2017,
    "Hôpital Régional de Maroua",
    "Paediatrician focused on childhood infections and nutrition.",
  ],
  [
    "Victor Ekwalla",
    "male",
    ["Cardiology"],
    "Douala",
    2001,
    "Polyclinique Bonanjo",
    "Senior cardiologist; stress tests, heart rhythm disorders and prevention.",
  ],
  [
    "Sandrine Ngassa",
    "female",
    ["General practice"],
    "Bertoua",
    2020,
    "Hôpital Régional de Bertoua",
    "General practitioner caring for families in the East region.",
  ],
  [
    "Thierry Etoundi",
    "male",
    ["Internal medicine"],
    "Yaoundé",
    2002,
    "Hôpital Général de Yaoundé",
    "Internist with long experience in diabetes and endocrine disorders.",
  ],
  [
    "Léonie Mbah",
    "female",
    ["Gynecology"],
    "Bamenda",
    2015,
    "St. Mary Soledad Hospital",
    "Gynaecologist: antenatal care, cervical screening and contraception advice.",
  ],
  [
    "Gaston Fokou",
    "male",
    ["General practice", "Internal medicine"],
    "Douala",
    2007,
    "Hôpital de District de Bonassama",
    "Physician for adults: hypertension, diabetes and general health checks.",
  ],
  [
    "Agnès Manga",
    "female",
    ["Pediatrics"],
    "Douala",
    2009,
    "Hôpital Laquintinie",
    "Paediatrician: asthma, allergies and sickle cell disease follow-up.",
  ],
];

/** dr.<first>.<last>@example.com in plain ASCII. */
const directoryEmail = (name: string) =>
  `dr.${name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]+/g, ".")
    .replace(/^\.|\.$/g, "")}@example.com`;

export const DEMO_DIRECTORY: DemoDoctor[] = DIRECTORY.map(
  ([username, gender, specialityNames, city, startYear, dutyHospital, biography]) => ({
    username,
    email: directoryEmail(username),
    gender,
    specialities: specialityNames,
    city,
    startYear,
    dutyHospital,
    biography,
  }),
);

export async function seedDemo(db: Db) {
  await seedReferenceData(db);
  const [cameroon] = await db.select().from(countries).where(eq(countries.code, "CM"));
  const cityRows = await db.select().from(cities).where(eq(cities.countryId, cameroon.id));
  const specialityRows = await db.select().from(specialities);
  const cityId = (name: string) => cityRows.find((c) => c.name === name)!.id;
  const specialityId = (name: string) => specialityRows.find((s) => s.name === name)!.id;

  const existing = new Set(
    (
      await db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(users)
        .where(sql`lower(${users.email}) like '%@example.com'`)
    ).map((r) => r.email),
  );
  // argon2 is deliberately slow: hash once, and only when something is missing.
  let passwordHash: string | undefined;
  const hashed = async () => (passwordHash ??= await hashPassword(DEMO_PASSWORD));

  /** Inserts the user unless present (also when another instance just did); null when skipped. */
  const createUser = async (tx: Db, values: Omit<typeof users.$inferInsert, "passwordHash">) => {
    const [row] = await tx
      .insert(users)
      .values({ otpVerified: true, countryId: cameroon.id, ...values, passwordHash: await hashed() })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return row?.id ?? null;
  };

  if (!existing.has("patient@example.com")) {
    await db.transaction(async (tx) => {
      const id = await createUser(tx, {
        email: "patient@example.com",
        username: "Demo Patient",
        role: "patient",
        // A valid Cameroonian mobile in E.164, as the profile stores numbers: the demo can verify it by SMS (docs/sms.md).
        phone: "+237677123456",
        gender: "female",
        address: "Rue Joss, Bonanjo",
        cityId: cityId("Douala"),
      });
      if (id) await tx.insert(patients).values({ userId: id, profession: "Teacher" });
    });
  }

  if (!existing.has("admin@example.com")) {
    await createUser(db, { email: "admin@example.com", username: "Demo Admin", role: "admin", countryId: null });
  }

  for (const [index, doctor] of [DEMO_DOCTOR, PENDING_DOCTOR, ...DEMO_DIRECTORY].entries()) {
    if (existing.has(doctor.email)) continue;
    await db.transaction(async (tx) => {
      const id = await createUser(tx, {
        email: doctor.email,
        username: doctor.username,
        role: "doctor",
        gender: doctor.gender,
        cityId: cityId(doctor.city),
      });
      if (!id) return;
      const verified = (doctor.verification ?? "verified") === "verified";
      await tx.insert(doctors).values({
        userId: id,
        serialNumber: `CM-MED-${String(1000 + index * 37).padStart(5, "0")}`,
        contact: `+237 6${String(70 + (index % 30)).padStart(2, "0")} ${String(100 + index * 7).slice(-3)} ${String(200 + index * 13).slice(-3)}`,
        dutyHospital: doctor.dutyHospital,
        biography: doctor.biography,
        startYear: doctor.startYear,
        verification: verified ? "verified" : "pending",
        verifiedAt: verified ? new Date() : null,
      });
      if (doctor.specialities.length) {
        await tx
          .insert(doctorSpecialities)
          .values(doctor.specialities.map((name) => ({ doctorId: id, specialityId: specialityId(name) })));
      }
    });
  }
  if (!existing.has("reception@example.com")) {
    // The front desk (docs/product.md, The front desk), serving the demo doctor.
    await db.transaction(async (tx) => {
      const id = await createUser(tx, {
        email: "reception@example.com",
        username: "Demo Reception",
        role: "receptionist",
        locale: "fr",
      });
      const [doctor] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${DEMO_DOCTOR.email}`);
      if (id && doctor) await tx.insert(staffDoctors).values({ staffId: id, doctorId: doctor.id });
    });
  }
  await seedDemoHistory(db, specialityId("General practice"));
}

/** Past consultations of the demo doctor that still await 'Mark completed', one a day. */
export const DEMO_PAST_CONFIRMED = 6;

/**
 * The demo doctor's recent history with the demo patient: confirmed online appointments of the
 * last days at 10:00, which the doctor can now mark completed. Written once, when the demo doctor
 * has no appointment at all (the API itself refuses to book in the past).
 */
async function seedDemoHistory(db: Db, generalPractice: number) {
  const ids = await db
    .select({ id: users.id, email: sql<string>`${users.email}` })
    .from(users)
    .where(sql`lower(${users.email}) in ('doctor@example.com', 'patient@example.com')`);
  const doctorId = ids.find((u) => u.email.toLowerCase() === "doctor@example.com")?.id;
  const patientId = ids.find((u) => u.email.toLowerCase() === "patient@example.com")?.id;
  if (!doctorId || !patientId) return;
  const [any] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.doctorId, doctorId))
    .limit(1);
  if (any) return;
  await addPastAppointments(db, { doctorId, patientId, specialityId: generalPractice, days: DEMO_PAST_CONFIRMED });
}

/**
 * Confirmed online appointments of `doctorId` with `patientId` at 10:00 on each of the last `days`
 * days (clinic time), or with `today` one today at 10:00: history a demo needs, which the API never
 * books. Also `npm run admin -- demo-history` on a demo database, so that each browser test makes
 * its own.
 */
export async function addPastAppointments(
  db: Db,
  {
    doctorId,
    patientId,
    specialityId,
    days,
    today: fromToday = false,
  }: { doctorId: string; patientId: string; specialityId: number; days: number; today?: boolean },
) {
  const today = Date.parse(`${clinicToday()}T00:00:00Z`);
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(today - (i + (fromToday ? 0 : 1)) * 86_400_000).toISOString().slice(0, 10),
  );
  return db
    .insert(appointments)
    .values(
      dates.map((day) => ({
        patientId,
        doctorId,
        specialityId,
        status: "confirmed" as const,
        type: "online" as const,
        category: "direct" as const,
        startsAt: zonedInstant(day, "10:00"),
        price: GENERAL_FEE,
        details: { deviceType: "phone", internetQuality: "good", videoPreference: "any" },
      })),
    )
    .returning({ id: appointments.id });
}
