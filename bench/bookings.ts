// What serialises the bookings of one doctor on PostgreSQL, and what it costs (ADR 0024). A booking
// (bookDirect, the API's own code) takes the doctor's plan row FOR SHARE, which other bookings share,
// and inserts the appointment, whose statement trigger updates the doctor's `next_free_slots` row
// (ADR 0024): that row is held until the booking commits, so a second booking of the same doctor
// waits for the first one's end. This shows which lock a second booking waits on, then times
// bookings sent 10 at a time (the pool's size) to one doctor and to as many doctors, alternating.
//
// Run: BENCH_DATABASE_URL=postgres://… node bench/bookings.ts   (a server where a throw-away
//      database may be created and dropped)
//   BENCH_RUNS  rounds of each (default 30; 5 is enough to see it)
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { SLOTS } from "../contract/constants.ts";
import { bookDirect } from "../api/appointment/booking.ts";
import { appointments, workingPlans } from "../api/db/schema.ts";
import { seedReferenceData } from "../api/db/reference.ts";
import { outboxMailer } from "../api/mail/outbox.ts";
import { rowsOf } from "../api/query.ts";
import { accountFactories } from "../api/test/harness.ts";
import { openScratchDatabase } from "../api/test/scratch-database.ts";
import { benchConfig } from "../config.ts";

const bench = benchConfig();
if (!bench.BENCH_DATABASE_URL) throw new Error("BENCH_DATABASE_URL: this measures PostgreSQL's locks");
const ROUNDS = bench.BENCH_RUNS ?? 30;
const BOOKINGS = 60;
const IN_FLIGHT = 10;

const database = await openScratchDatabase({ serverUrl: bench.BENCH_DATABASE_URL, prefix: "bench_bookings" });
const other = await database.reopen();
try {
  const { db } = database;
  await seedReferenceData(db);
  const accounts = accountFactories(db);
  const mailer = outboxMailer(db);
  const patient = await accounts.createPatient();
  const doctors: string[] = [];
  for (let i = 0; i < BOOKINGS; i++) doctors.push((await accounts.createDoctor()).user.id);
  await db.update(workingPlans).set({ minimumNoticeHours: 0 });

  // Weekdays from tomorrow on, within the booking horizon: the slots to book.
  const days: string[] = [];
  for (let t = Date.now() + 86_400_000; days.length < 60; t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.push(d.toISOString().slice(0, 10));
  }
  const book = (doctorId: string, date: string, time: string) =>
    bookDirect(db, mailer, patient.user.id, { doctorId, type: "online", date, time }, null);

  // 1. Which lock a second booking of the same doctor waits on, while a first is not committed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const inserted = new Promise<void>((resolve) => (written = resolve));
  const first = other.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from working_plans where doctor_id = ${doctors[0]} for share`);
    await tx.insert(appointments).values({
      patientId: patient.user.id,
      doctorId: doctors[0]!,
      type: "online",
      category: "direct",
      status: "pending",
      startsAt: new Date(`${days[0]}T08:00:00Z`),
    });
    written();
    await held;
  });
  await inserted;
  const second = book(doctors[0]!, days[0]!, SLOTS[3]);
  let waits: { locktype: string; relation: string | null }[] = [];
  for (const deadline = Date.now() + 30_000; waits.length === 0 && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A row lock's waiter holds the 'tuple' lock of the row it waits for, and waits on the holder's
    // transaction id.
    waits = rowsOf(
      await other.db.execute(sql`select l.locktype, c.relname as relation from pg_locks l
        join pg_stat_activity a on a.pid = l.pid and a.datname = current_database() and a.wait_event_type = 'Lock'
        left join pg_class c on c.oid = l.relation
        where l.locktype in ('tuple', 'transactionid') or not l.granted`),
    );
  }
  release();
  await Promise.all([first, second]);
  await db.update(appointments).set({ status: "cancelled" });
  console.log("a second booking of the same doctor waits on:");
  for (const w of waits) console.log(`  ${w.locktype}${w.relation ? ` of ${w.relation}` : ""}`);

  // 2. Bookings sent IN_FLIGHT at a time: one doctor's distinct slots, or one slot of each doctor.
  async function timed(targets: { doctorId: string; date: string; time: string }[]) {
    const queue = [...targets];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let t = queue.shift(); t; t = queue.shift()) await book(t.doctorId, t.date, t.time);
      }),
    );
    return (performance.now() - started) / targets.length;
  }
  const one: number[] = [];
  const many: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Each round books the same slots, cancelled after it (a cancelled slot is free again).
    const oneDoctor = Array.from({ length: BOOKINGS }, (_, i) => ({
      doctorId: doctors[round % BOOKINGS]!,
      date: days[Math.floor(i / SLOTS.length)]!,
      time: SLOTS[i % SLOTS.length]!,
    }));
    const manyDoctors = doctors.map((doctorId) => ({ doctorId, date: days[round % days.length]!, time: SLOTS[0] }));
    one.push(await timed(oneDoctor));
    await db.update(appointments).set({ status: "cancelled" });
    many.push(await timed(manyDoctors));
    await db.update(appointments).set({ status: "cancelled" });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ms = (x: number) => x.toFixed(2);
  console.log(
    `${BOOKINGS} bookings, ${IN_FLIGHT} at a time, ${ROUNDS} rounds, median wall ms a booking: ` +
      `one doctor ${ms(median(one))} (${ms(Math.min(...one))}-${ms(Math.max(...one))}), ` +
      `${BOOKINGS} doctors ${ms(median(many))} (${ms(Math.min(...many))}-${ms(Math.max(...many))}), ` +
      `ratio ${(median(one) / median(many)).toFixed(2)}`,
  );
} finally {
  await other.close();
  await database.close();
  await database.drop();
}
