// Data-scale budget (docs/architecture.md, Budgets): the search and list calls stay index-backed as data grows,
// i.e. with 100,000 doctors and 1,000,000 appointments they stay within 2x of their time on
// 1,000 doctors / 10,000 appointments. For each size: a fresh database with the committed
// migrations, bulk data generated in SQL (INSERT ... SELECT over generate_series), the real API
// (createApi, called over HTTP on 127.0.0.1 as the API test harness does), warm-up, then the median
// of BENCH_RUNS sequential calls per size, small and large alternating. The searches run warm (the
// next free slot of each doctor kept, ADR 0024) and cold (every kept one made stale first, so each
// doctor of the page is walked over its 90-day horizon). Prints a JSON report and a markdown table;
// `total` counts every match, so the rows column shows what each call had to count. Last, on the
// large set, the calls that walk the availability rule with six hourly slots, then with every plan
// on 15-minute visits (issue 34): their ratio.
//
// Run: node bench/scale.ts
//   BENCH_DATABASE_URL  postgres://… of a server where a throw-away database may be created and
//                       dropped (else embedded PGlite in a temporary directory)
//   BENCH_SCALE         multiplies both sizes (e.g. 0.1 for a quick run; default 1)
//   BENCH_RUNS          timed calls per row (default 30, at least 20)
//   BENCH_EXPLAIN       1 prints EXPLAIN (ANALYZE, BUFFERS) of the slowest statements of each call
//                       on the large data set
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createApi } from "../api/app.ts";
import { hashPassword } from "../api/auth/password.ts";
import { issueToken } from "../api/auth/tokens.ts";
import type { Db } from "../api/db/index.ts";
import { seedReferenceData } from "../api/db/reference.ts";
import { outboxMailer } from "../api/mail/outbox.ts";
import { openScratchDatabase } from "../api/test/scratch-database.ts";
import { benchConfig } from "../config.ts";

const bench = benchConfig();
const SCALE = bench.BENCH_SCALE;
const RUNS = Math.max(20, bench.BENCH_RUNS ?? 30);
const WARMUP = 5;
const EXPLAIN = bench.BENCH_EXPLAIN === "1";
const BASE_URL = bench.BENCH_DATABASE_URL;
if (!(SCALE > 0)) throw new Error("BENCH_SCALE must be a positive number");

interface Size {
  label: "small" | "large";
  doctors: number;
  appointments: number;
  patients: number;
}
const size = (label: Size["label"], doctors: number, appointments: number): Size => {
  const d = Math.max(50, Math.round(doctors * SCALE));
  const a = Math.max(500, Math.round(appointments * SCALE));
  // One patient per ten appointments (and ten appointments per doctor) keeps each patient's and
  // each doctor's own list the same length at every size; the shared pools (doctors, open
  // requests) grow with the data.
  return { label, doctors: d, appointments: a, patients: Math.max(50, Math.round(a / 10)) };
};
const SIZES = [size("small", 1_000, 10_000), size("large", 100_000, 1_000_000)];

// ---------------------------------------------------------------------------------------------
// Data generation. Every row is derived from its series number through hashint8extended, so a
// run is reproducible; ids are md5-derived UUIDs (random-looking like gen_random_uuid, but known).

const FIRST_NAMES = [
  "Jean",
  "Paul",
  "Marie",
  "Aïcha",
  "Emmanuel",
  "Christelle",
  "Samuel",
  "Florence",
  "Ibrahim",
  "Brigitte",
  "Patrice",
  "Solange",
  "Hamadou",
  "Mireille",
  "Charles",
  "Nadège",
  "Didier",
  "Rose",
  "Alain",
  "Hadiza",
  "Georges",
  "Pauline",
  "Eric",
  "Vanessa",
  "Blaise",
  "Estelle",
  "Martin",
  "Clarisse",
  "Joseph",
  "Esther",
  "Pierre",
  "Grace",
  "Daniel",
  "Sandrine",
  "Michel",
  "Yvonne",
  "André",
  "Chantal",
  "Moussa",
  "Fatima",
];
const LAST_NAMES = [
  "Mbarga",
  "Bello",
  "Fotso",
  "Nkoulou",
  "Tabi",
  "Ebanda",
  "Oumarou",
  "Atangana",
  "Nkwain",
  "Kamga",
  "Alim",
  "Essomba",
  "Nana",
  "Mvondo",
  "Njoya",
  "Ndive",
  "Tchoupo",
  "Mohamadou",
  "Ondoa",
  "Fouda",
  "Tanyi",
  "Djoumessi",
  "Owona",
  "Moukoko",
  "Abega",
  "Nguefack",
  "Etoundi",
  "Milla",
  "Song",
  "Kameni",
  "Issa",
  "Manga",
  "Ekambi",
  "Onana",
  "Zambo",
  "Ngono",
  "Belinga",
  "Ayissi",
  "Tchakounte",
  "Wandji",
  "Noah",
  "Eyenga",
  "Mefire",
  "Sadou",
  "Bakari",
  "Yaya",
  "Hamidou",
  "Ngassa",
  "Tagne",
  "Kouam",
  "Njike",
  "Simo",
  "Tiani",
  "Ewane",
  "Ngando",
  "Ndjock",
  "Epée",
  "Dikongue",
  "Ebongue",
  "Mbida",
];
const HOSPITALS = [
  "Hôpital Laquintinie",
  "Hôpital Général de Douala",
  "Hôpital Central de Yaoundé",
  "Hôpital Général de Yaoundé",
  "Centre Hospitalier Universitaire de Yaoundé",
  "Hôpital Régional de Garoua",
  "Hôpital Régional de Bafoussam",
  "Bamenda Regional Hospital",
  "Buea Regional Hospital",
  "Limbe Regional Hospital",
  "Hôpital Régional de Maroua",
  "Hôpital Régional de Ngaoundéré",
  "Hôpital de District de Deido",
  "Hôpital de District de Kribi",
  "Hôpital Régional d'Ebolowa",
  "Hôpital Régional de Bertoua",
  "Clinique de l'Espoir",
  "Polyclinique Bonanjo",
];
const REASONS = [
  "Fever and headache",
  "Follow-up visit",
  "Chest pain when climbing stairs",
  "Skin rash",
  "Annual check-up",
  "Back pain",
  "Persistent cough",
  "Blood pressure control",
];
// Five doctors in every size carry this surname: a selective name search finds the same few.
const PLANTED_SURNAME = "Tchuenkam";
const PLANTED_COUNT = 5;

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (xs: string[]) => `array[${xs.map(lit).join(",")}]::text[]`;
const intArray = (xs: number[]) => `array[${xs.join(",")}]::int[]`;
/** A reproducible number in [0, mod) for series row g; seeds give independent draws. */
const h = (seed: number, mod: number | string, g = "g") =>
  `((hashint8extended(${g}::bigint, ${seed}) & 9223372036854775807) % (${mod}))`;

async function generate(db: Db, n: Size) {
  await seedReferenceData(db);
  let lap = performance.now();
  const run = async (text: string) => {
    const result = await db.execute(sql.raw(text));
    const now = performance.now();
    if (now - lap > 1000)
      console.error(`[scale]   ${((now - lap) / 1000).toFixed(1)} s  ${text.trim().split("\n")[0].slice(0, 70)}`);
    lap = now;
    return result as unknown as { rows: Record<string, unknown>[] };
  };
  const cityRows = (
    await run(
      `select c.id, c.country_id, c.name, k.code from cities c join countries k on k.id = c.country_id order by c.id`,
    )
  ).rows as {
    id: number;
    country_id: number;
    name: string;
    code: string;
  }[];
  const specialityRows = (await run(`select id, name from specialities order by id`)).rows as {
    id: number;
    name: string;
  }[];
  // A hundred weighted slots: Douala and Yaoundé a quarter each, the other 25 cities 2% each.
  const douala = cityRows.find((c) => c.name === "Douala")!;
  const yaounde = cityRows.find((c) => c.name === "Yaoundé")!;
  const others = cityRows.filter((c) => c !== douala && c !== yaounde);
  const citySlots = [
    ...Array(25).fill(douala),
    ...Array(25).fill(yaounde),
    ...Array.from({ length: 50 }, (_, i) => others[i % others.length]),
  ];
  const cityIds = intArray(citySlots.map((c) => c.id));
  const countryIds = intArray(citySlots.map((c) => c.country_id));
  // General practice 30%, the other specialities share the rest.
  const general = specialityRows.find((s) => s.name === "General practice")!;
  const rest = specialityRows.filter((s) => s !== general);
  const specialitySlots = [
    ...Array(30).fill(general.id),
    ...Array.from({ length: 70 }, (_, i) => rest[i % rest.length].id),
  ];
  const specialityIds = intArray(specialitySlots);
  const firsts = textArray(FIRST_NAMES);
  const lasts = textArray(LAST_NAMES);
  const passwordHash = lit(await hashPassword("Scale1234!"));
  const plantedStep = Math.floor(n.doctors / PLANTED_COUNT);
  const planted = `(g % ${plantedStep} = 0 and g / ${plantedStep} <= ${PLANTED_COUNT})`;
  const name = (firstSeed: number, lastSeed: number) =>
    `(${firsts})[1 + ${h(firstSeed, FIRST_NAMES.length)}] || ' ' || (${lasts})[1 + ${h(lastSeed, LAST_NAMES.length)}]` +
    ` || case when ${h(lastSeed + 1, 10)} < 3 then '-' || (${lasts})[1 + ${h(lastSeed + 2, LAST_NAMES.length)}] else '' end`;

  // Doctors: 90% verified, 8% pending, 2% rejected; 1% deleted accounts. Doctor 1 (timed) is a
  // verified general practitioner in Douala.
  await run(`
    insert into users (id, email, password_hash, role, username, phone, gender, otp_verified, locale, country_id, city_id, created_at, deleted_at)
    select md5('doctor' || g)::uuid, 'doctor' || g || '@scale.test', ${passwordHash}, 'doctor',
      case when ${planted} then (${firsts})[1 + ${h(1, FIRST_NAMES.length)}] || ' ${PLANTED_SURNAME}' else ${name(1, 2)} end,
      '+237 6' || lpad((g % 100000000)::text, 8, '0'), case when ${h(6, 2)} = 0 then 'male' else 'female' end::gender,
      true, case when ${h(7, 3)} = 0 then 'fr' else 'en' end, (${countryIds})[1 + c], (${cityIds})[1 + c],
      now() - ${h(8, 1500)} * interval '1 day', case when g > 1 and not ${planted} and ${h(9, 100)} = 0 then now() end
    from (select g, case when g = 1 then 0 else ${h(5, 100)} end as c from generate_series(1, ${n.doctors}) g) s`);
  await run(`
    insert into doctors (user_id, serial_number, contact, duty_hospital, biography, start_year, verification, verified_at)
    select md5('doctor' || g)::uuid, 'MED-' || lpad(g::text, 7, '0'), '+237 6' || lpad((g % 100000000)::text, 8, '0'),
      (${textArray(HOSPITALS)})[1 + ${h(10, HOSPITALS.length)}], 'Practising physician; consultations in French and English.',
      1985 + ${h(11, 38)}, v::doctor_verification, case when v = 'verified' then now() - ${h(12, 1000)} * interval '1 day' end
    from (select g, case when g = 1 or ${planted} or ${h(13, 100)} < 90 then 'verified' when ${h(13, 100)} < 98 then 'pending' else 'rejected' end as v
          from generate_series(1, ${n.doctors}) g) s`);
  // One speciality each (doctor 1: general practice), a second one for a fifth of them.
  await run(`
    insert into doctor_specialities (doctor_id, speciality_id)
    select md5('doctor' || g)::uuid, case when g = 1 then ${general.id} else (${specialityIds})[1 + ${h(14, 100)}] end
    from generate_series(1, ${n.doctors}) g`);
  await run(`
    insert into doctor_specialities (doctor_id, speciality_id)
    select md5('doctor' || g)::uuid, (${specialityIds})[1 + ${h(15, 100)}]
    from generate_series(2, ${n.doctors}) g where ${h(16, 5)} = 0
    on conflict do nothing`);

  // Patients: one per ten appointments; 1% deleted. Patient 1 is timed.
  await run(`
    insert into users (id, email, password_hash, role, username, phone, gender, date_of_birth, otp_verified, locale, country_id, city_id, created_at, deleted_at)
    select md5('patient' || g)::uuid, 'patient' || g || '@scale.test', ${passwordHash}, 'patient', ${name(21, 22)},
      '+237 6' || lpad(((g * 7919) % 100000000)::text, 8, '0'), case when ${h(26, 2)} = 0 then 'male' else 'female' end::gender,
      date '1950-01-01' + ${h(27, 25000)}::int, true, case when ${h(28, 3)} = 0 then 'fr' else 'en' end,
      (${countryIds})[1 + c], (${cityIds})[1 + c], now() - ${h(29, 1500)} * interval '1 day',
      case when g > 1 and ${h(30, 100)} = 0 then now() end
    from (select g, ${h(25, 100)} as c from generate_series(1, ${n.patients}) g) s`);
  await run(`
    insert into patients (user_id, profession)
    select md5('patient' || g)::uuid, (array['Teacher','Trader','Nurse','Engineer','Student','Farmer','Driver',null])[1 + ${h(31, 8)}]
    from generate_series(1, ${n.patients}) g`);

  // Appointments over two years of history and the next 60 days, on half-hour slots. 85% direct;
  // of the 15% open requests (category random) a fifth still has no doctor. Statuses follow time:
  // the past is mostly completed or cancelled, the future pending, proposed or confirmed. A slot
  // already taken by an active appointment of the same doctor is skipped (ON CONFLICT).
  await run(`
    insert into appointments (patient_id, doctor_id, speciality_id, status, type, category, starts_at, place, city_id, country_id, price, tag, details, created_at, updated_at)
    select patient_id, doctor_id, speciality_id, status::appointment_status, type::appointment_type, category::appointment_category,
      starts_at, place, city_id, country_id, price, null, details, created_at, case when status <> 'pending' then created_at + interval '1 day' end
    from (
      select *,
        case
          when open and future then case when r < 60 then 'pending' when r < 90 then 'proposed' else 'cancelled' end
          when open then case when r < 50 then 'cancelled' else 'pending' end
          when future then case when r < 35 then 'pending' when r < 85 then 'confirmed' else 'cancelled' end
          else case when r < 70 then 'completed' when r < 90 then 'cancelled' else 'confirmed' end
        end as status
      from (
        select g, open, category, starts_at, starts_at > now() as future, ${h(40, 100)} as r,
          md5('patient' || (1 + ${h(41, n.patients)}))::uuid as patient_id,
          case when open then null else md5('doctor' || (1 + ${h(42, n.doctors)}))::uuid end as doctor_id,
          (${specialityIds})[1 + ${h(43, 100)}] as speciality_id,
          case when ${h(44, 20)} < 9 then 'online' when ${h(44, 20)} < 18 then 'in-person' else 'consultation' end as type,
          case when ${h(44, 20)} < 9 then null else 'Consultation room ' || (1 + ${h(45, 12)}) end as place,
          (${cityIds})[1 + c] as city_id, (${countryIds})[1 + c] as country_id,
          case when ${h(46, 10)} < 3 then 5000 else 10000 end as price,
          case when ${h(44, 20)} < 9
            then jsonb_build_object('deviceType', 'phone', 'internetQuality', 'good', 'videoPreference', 'whatsapp', 'reason', (${textArray(REASONS)})[1 + ${h(47, REASONS.length)}])
            else jsonb_build_object('reason', (${textArray(REASONS)})[1 + ${h(47, REASONS.length)}]) end as details,
          least(starts_at, now()) - (1 + ${h(48, 30)}) * interval '1 day' as created_at
        from (
          select g, ${h(49, 100)} as c,
            case when ${h(50, 100)} < 15 then 'random' else 'direct' end as category,
            ${h(50, 100)} < 3 as open,
            date_trunc('hour', now()) - interval '730 days' + ${h(51, 790 * 48)} * interval '30 minutes' as starts_at
          from generate_series(1, ${n.appointments}) g
        ) a
      ) b
    ) s
    on conflict do nothing`);
  // Doctors' proposals on the open requests in status 'proposed' (one or two each).
  await run(`
    insert into proposals (appointment_id, doctor_id, status, created_at)
    select a.id, md5('doctor' || (1 + ${h(60, n.doctors, "(hashtext(a.id::text)::bigint * 4 + k)")}))::uuid, 'pending', a.created_at + interval '1 hour'
    from appointments a, generate_series(1, 2) k
    where a.doctor_id is null and a.status = 'proposed' and (k = 1 or ${h(61, 2, "hashtext(a.id::text)")} = 0)
    on conflict do nothing`);
  await run(`vacuum analyze`);
  const counts = (
    await run(`select
      (select count(*) from users where role = 'doctor')::int as doctors,
      (select count(*) from users where role = 'patient')::int as patients,
      (select count(*) from appointments)::int as appointments,
      (select count(*) from appointments where doctor_id is null)::int as open_requests,
      (select count(*) from proposals)::int as proposals`)
  ).rows[0] as Record<string, number>;
  const ids = {
    doctor: (await run(`select md5('doctor1')::uuid as id`)).rows[0] as { id: string },
    patient: (await run(`select md5('patient1')::uuid as id`)).rows[0] as { id: string },
  };
  return {
    counts,
    doctorId: ids.doctor.id,
    patientId: ids.patient.id,
    cardiology: specialityRows.find((s) => s.name === "Cardiology")!.id,
    douala: douala.id,
  };
}

// ---------------------------------------------------------------------------------------------
// Databases: PGlite in a temporary directory, or a throw-away database on BENCH_DATABASE_URL.

const freshDatabase = (label: string) =>
  openScratchDatabase({
    serverUrl: BASE_URL,
    dataDir: BASE_URL ? undefined : mkdtempSync(path.join(os.tmpdir(), `bench-scale-${label}-`)),
    prefix: `bench_scale_${label}`,
  });

// Statement capture for EXPLAIN: the drivers' query methods are wrapped so that the statements a
// call really sends (text and parameters) can be explained afterwards on the same connection.
interface Captured {
  target: { query: (...args: any[]) => Promise<any> };
  text: string;
  params: unknown[];
}
let capturing: Captured[] | null = null;
function wrapQuery(proto: any) {
  const original = proto.query;
  proto.query = function (this: any, query: any, params?: any, ...rest: any[]) {
    const text = typeof query === "string" ? query : query?.text;
    if (capturing && typeof text === "string" && /^\s*select/i.test(text)) {
      capturing.push({
        target: { query: (q: string, p: unknown[]) => original.call(this, q, p) },
        text,
        params: Array.isArray(params) ? params : [],
      });
    }
    return original.call(this, query, params, ...rest);
  };
}
if (EXPLAIN) {
  wrapQuery(PGlite.prototype);
  wrapQuery(pg.Pool.prototype);
}

// ---------------------------------------------------------------------------------------------
// The calls.

interface Call {
  name: string;
  role: "patient" | "doctor";
  path: (ctx: Awaited<ReturnType<typeof generate>>) => string;
  /**
   * Every kept next free slot made stale before each call (the clinic's calendar version bumped, as
   * a new closed day does: ADR 0024), so the search walks the rule for each doctor of its page, over
   * the 90-day horizon every generated plan has.
   */
  cold?: boolean;
}
const CALLS: Call[] = [
  {
    name: "doctor search: name fragment (5 matches)",
    role: "patient",
    path: () => `/doctor?search=${PLANTED_SURNAME.slice(0, 7).toLowerCase()}`,
  },
  { name: "doctor search: common name fragment 'mba'", role: "patient", path: () => `/doctor?search=mba` },
  // Names start with the first name, so a first-name fragment matches one stretch of the name
  // order, late in it: a walk of the name-ordered directory reads everything before it.
  { name: "doctor search: first-name fragment 'yvon'", role: "patient", path: () => `/doctor?search=yvon` },
  {
    name: "doctor search: speciality + city",
    role: "patient",
    path: (c) => `/doctor?speciality=${c.cardiology}&city=${c.douala}`,
  },
  // A common fragment with a rare filter: few of its matches are in the filtered directory, so a
  // walk of the name order meets the page late (ADR 0018); with a first-name fragment, late again.
  {
    name: "doctor search: 'mba' + speciality + city",
    role: "patient",
    path: (c) => `/doctor?search=mba&speciality=${c.cardiology}&city=${c.douala}`,
  },
  {
    name: "doctor search: 'yvon' + speciality + city",
    role: "patient",
    path: (c) => `/doctor?search=yvon&speciality=${c.cardiology}&city=${c.douala}`,
  },
  {
    name: "doctor search: speciality + city, cold next free slots",
    role: "patient",
    path: (c) => `/doctor?speciality=${c.cardiology}&city=${c.douala}`,
    cold: true,
  },
  {
    name: "doctor search: 'mba', cold next free slots",
    role: "patient",
    path: () => `/doctor?search=mba`,
    cold: true,
  },
  { name: "doctor list: page 50", role: "patient", path: () => `/doctor?limit=50` },
  { name: "doctor list: page 50, cold next free slots", role: "patient", path: () => `/doctor?limit=50`, cold: true },
  { name: "patient appointments: default page", role: "patient", path: () => `/appointment` },
  {
    name: "patient appointments: search + status",
    role: "patient",
    path: () => `/appointment?search=olog&status=completed`,
  },
  {
    name: "doctor appointments: assigned + search",
    role: "doctor",
    path: () => `/doctor/doctor_appointments?category=direct&search=an`,
  },
  {
    name: "doctor appointments: open requests",
    role: "doctor",
    path: () => `/doctor/doctor_appointments?category=random`,
  },
  {
    name: "doctor appointments: open requests + search",
    role: "doctor",
    path: () => `/doctor/doctor_appointments?category=random&search=an`,
  },
  // The small data set has fewer open requests than a page of 50; with a page of 5 both sizes
  // return a full page, so the figures compare the same output.
  {
    name: "doctor appointments: open requests, page of 5",
    role: "doctor",
    path: () => `/doctor/doctor_appointments?category=random&limit=5`,
  },
  {
    name: "doctor appointments: open requests + search, page of 5",
    role: "doctor",
    path: () => `/doctor/doctor_appointments?category=random&search=an&limit=5`,
  },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A data set of one size behind its own API server. */
async function prepare(n: Size) {
  const started = performance.now();
  console.error(
    `[scale] ${n.label}: ${n.doctors} doctors, ${n.appointments} appointments, ${n.patients} patients (${BASE_URL ? "postgres" : "pglite"})`,
  );
  const database = await freshDatabase(n.label);
  const ctx = await generate(database.db, n);
  const generateSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  console.error(`[scale] ${n.label}: data generated in ${generateSeconds} s`, JSON.stringify(ctx.counts));
  const tokens = {
    patient: await issueToken(database.db, ctx.patientId),
    doctor: await issueToken(database.db, ctx.doctorId),
  };
  const app = createApi({ db: database.db, mailer: outboxMailer(database.db) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchCall = async (call: Call) => {
    const res = await fetch(base + call.path(ctx), { headers: { authorization: `Bearer ${tokens[call.role]}` } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${call.name} (${n.label}): ${res.status} ${JSON.stringify(body)}`);
    return body as { total: number; doctors?: unknown[]; appointments?: unknown[] };
  };
  const stale = async (call: Call) => {
    if (call.cold) await database.db.execute(sql`update clinic_calendar set version = version + 1`);
  };
  const get = async (call: Call) => {
    await stale(call);
    return fetchCall(call);
  };
  /** The call's time, a cold call's invalidation made before the clock starts. */
  const time = async (call: Call) => {
    await stale(call);
    const started = performance.now();
    await fetchCall(call);
    return performance.now() - started;
  };
  const close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
    await database.drop();
  };
  return { size: n, counts: ctx.counts, generateSeconds, get, time, close, db: database.db };
}

/**
 * Both sizes are timed in the same loop, alternating one small and one large call, so that load
 * from elsewhere on the machine weighs on both medians alike.
 */
async function measure(small: Awaited<ReturnType<typeof prepare>>, large: Awaited<ReturnType<typeof prepare>>) {
  const rows = [];
  const explains: Record<string, string[]> = {};
  for (const call of CALLS) {
    const shape = (body: Awaited<ReturnType<typeof small.get>>) =>
      `${(body.doctors ?? body.appointments ?? []).length} of ${body.total}`;
    let smallRows = "";
    let largeRows = "";
    for (let i = 0; i < WARMUP; i++) {
      smallRows = shape(await small.get(call));
      largeRows = shape(await large.get(call));
    }
    const times = { small: [] as number[], large: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      for (const [label, side] of i % 2
        ? ([
            ["large", large],
            ["small", small],
          ] as const)
        : ([
            ["small", small],
            ["large", large],
          ] as const)) {
        times[label].push(await side.time(call));
      }
    }
    const smallMs = Number(median(times.small).toFixed(2));
    const largeMs = Number(median(times.large).toFixed(2));
    const ratio = Number((largeMs / smallMs).toFixed(2));
    rows.push({ call: call.name, smallMs, largeMs, ratio, within2x: ratio <= 2, smallRows, largeRows });
    console.error(`[scale] ${call.name}: ${smallMs} ms / ${largeMs} ms = ${ratio}`);
    if (EXPLAIN) explains[call.name] = await explainCall(() => large.get(call));
  }
  return { rows, explains };
}

// Visit length (issue 34): the calls that walk the availability rule, on the large data set, with
// every doctor on the six hourly slots (the default), then on 15-minute visits from 08:00 to 12:00
// and 13:00 to 17:00 on weekdays (32 starts a day). The same data, one after the other: the plans
// change between the two (one bulk update), so the two phases cannot alternate.
const FIFTEEN_MINUTES = Array.from({ length: 32 }, (_, i) => {
  const minutes = (i < 16 ? 8 * 60 : 13 * 60 - 16 * 15) + i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});
const weekdayIn = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};
const PLAN_CALLS: Call[] = [
  ...CALLS.filter((c) => c.cold),
  {
    name: "slots of a doctor's day",
    role: "patient",
    path: (c) => `/appointment/slots?doctorId=${c.doctorId}&date=${weekdayIn(9)}`,
  },
];

async function measurePlans(large: Awaited<ReturnType<typeof prepare>>) {
  const phase = async () => {
    const ms: Record<string, number> = {};
    for (const call of PLAN_CALLS) {
      for (let i = 0; i < WARMUP; i++) await large.get(call);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await large.time(call));
      ms[call.name] = Number(median(times).toFixed(2));
    }
    return ms;
  };
  const hourly = await phase();
  const week = {
    monday: FIFTEEN_MINUTES,
    tuesday: FIFTEEN_MINUTES,
    wednesday: FIFTEEN_MINUTES,
    thursday: FIFTEEN_MINUTES,
    friday: FIFTEEN_MINUTES,
    saturday: [],
    sunday: [],
  };
  await large.db.execute(sql`update working_plans set visit_minutes = 15, week = ${JSON.stringify(week)}::jsonb`);
  const fifteen = await phase();
  return PLAN_CALLS.map((c) => ({
    call: c.name,
    hourlyMs: hourly[c.name]!,
    fifteenMs: fifteen[c.name]!,
    ratio: Number((fifteen[c.name]! / hourly[c.name]!).toFixed(2)),
  }));
}

/** EXPLAIN ANALYZE of the statements of one call, slowest first (those over 0.3 ms, at least one). */
async function explainCall(run: () => Promise<unknown>) {
  capturing = [];
  await run();
  const statements = capturing;
  capturing = null;
  const plans: { ms: number; text: string }[] = [];
  for (const s of statements) {
    const result = await s.target.query(`explain (analyze, buffers) ${s.text}`, s.params);
    const lines = (result.rows as Record<string, string>[]).map((r) => Object.values(r)[0]);
    const ms = Number(/Execution Time: ([\d.]+)/.exec(lines.join("\n"))?.[1] ?? 0);
    plans.push({ ms, text: `-- ${s.text}\n-- params: ${JSON.stringify(s.params)}\n${lines.join("\n")}` });
  }
  plans.sort((a, b) => b.ms - a.ms);
  return plans.filter((p, i) => i === 0 || p.ms >= 0.3).map((p) => p.text);
}

const loadAtStart = os.loadavg();
const small = await prepare(SIZES[0]);
let large: Awaited<ReturnType<typeof prepare>> | undefined;
let measured: Awaited<ReturnType<typeof measure>>;
let plans: Awaited<ReturnType<typeof measurePlans>>;
try {
  large = await prepare(SIZES[1]);
  measured = await measure(small, large);
  plans = await measurePlans(large);
} finally {
  await small.close();
  await large?.close();
}
const { rows, explains } = measured;
const report = {
  date: new Date().toISOString().slice(0, 10),
  database: BASE_URL ? "postgres" : "pglite",
  cores: os.availableParallelism(),
  node: process.version,
  // Other work on the machine shows here; the alternating runs share it between both sizes.
  loadAverage: {
    start: loadAtStart.map((l) => Number(l.toFixed(2))),
    end: os.loadavg().map((l) => Number(l.toFixed(2))),
  },
  runs: RUNS,
  scale: SCALE,
  small: { ...small.counts, generateSeconds: small.generateSeconds },
  large: { ...large.counts, generateSeconds: large.generateSeconds },
  rows,
  plans,
};
console.log(JSON.stringify(report, null, 2));
console.log();
console.log("| call | small ms | large ms | ratio | within 2x | rows of total, small | rows of total, large |");
console.log("|---|---:|---:|---:|:-:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.call} | ${r.smallMs} | ${r.largeMs} | ${r.ratio} | ${r.within2x ? "yes" : "NO"} | ${r.smallRows} | ${r.largeRows} |`,
  );
console.log();
console.log("| call (large set) | six hourly slots ms | 15-minute visits ms | ratio |");
console.log("|---|---:|---:|---:|");
for (const p of plans) console.log(`| ${p.call} | ${p.hourlyMs} | ${p.fifteenMs} | ${p.ratio} |`);
if (EXPLAIN) {
  for (const [name, plans] of Object.entries(explains)) {
    console.log(`\n### EXPLAIN (large): ${name}\n`);
    for (const p of plans) console.log("```\n" + p + "\n```");
  }
}
