// A new closed day or absence over booked appointments (api/appointment/period.ts, docs/product.md,
// Availability): everything it does (the cancellations, the bell notices, the mails, the texts, the
// audit trail) is written in its own transaction, in a number of statements that does not grow with
// the appointments it cancels, and the day's appointments are found through an index.
import { describe, expect, it } from "vitest";
import { and, eq, inArray, sql } from "drizzle-orm";
import { createdClosure } from "../../contract/availability.ts";
import { SLOTS } from "../../contract/constants.ts";
import { appointments, auditEvents, clinicClosures, notifications, smsOutbox, users } from "../db/schema.ts";
import { zonedInstant } from "../time.ts";
import { futureDate, setUpApi, type TestDoctor } from "../test/harness.ts";
import { DAILY_NOTICES } from "../sms/outbox.ts";
import { rowsOf } from "../query.ts";
import { periodAppointments } from "./period.ts";

const api = setUpApi();

/** Counts, per table, the INSERT statements run on it (not the rows they write). */
async function countInsertStatements(tables: string[]) {
  await api.db.execute(sql`create table if not exists test_insert_statements (tbl text not null)`);
  await api.db.execute(
    sql.raw(`create or replace function test_count_statement() returns trigger language plpgsql as $$
      begin insert into test_insert_statements values (tg_table_name); return null; end $$`),
  );
  for (const table of tables)
    await api.db.execute(
      sql.raw(`create or replace trigger test_count_${table} after insert on ${table}
        for each statement execute function test_count_statement()`),
    );
  await api.db.execute(sql`delete from test_insert_statements`);
  return async () => {
    const rows = rowsOf<{ tbl: string; n: number }>(
      await api.db.execute(sql`select tbl, count(*)::int as n from test_insert_statements group by tbl order by tbl`),
    );
    return Object.fromEntries(rows.map((r) => [r.tbl, Number(r.n)]));
  };
}

/** Every slot of `date` of each doctor, booked (confirmed) for the patient `patientOf(doctor index, slot index)` gives. */
async function bookDay(date: string, doctors: TestDoctor[], patientOf: (d: number, s: number) => string) {
  return api.db
    .insert(appointments)
    .values(
      doctors.flatMap((doctor, d) =>
        SLOTS.map((slot, s) => ({
          patientId: patientOf(d, s),
          doctorId: doctor.user.id,
          type: "online" as const,
          status: "confirmed" as const,
          startsAt: zonedInstant(date, slot),
        })),
      ),
    )
    .returning({ id: appointments.id, patientId: appointments.patientId });
}

describe("a closed day over booked appointments", () => {
  it("cancels, tells and audits them all in a few statements, whatever their number, keeping each patient's daily text limit", async () => {
    const admin = await api.createAdmin();
    const doctors = await Promise.all(Array.from({ length: 6 }, (_, i) => api.createDoctor({ username: `Dr ${i}` })));
    // A verified number is one patient's (migration 0019): each has their own.
    const texted = (n: number) => ({
      phone: `+2376700001${String(n).padStart(2, "0")}`,
      phoneVerified: true,
      sms: true,
    });
    // One patient holds both first doctors' whole day (12 appointments, more than their daily texts);
    // 24 others one appointment each, one of them without texts.
    const busy = await api.createPatient({ ...texted(99), username: "Busy" });
    const others = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api.createPatient(i === 0 ? { locale: "fr" } : { ...texted(i), locale: "fr" }),
      ),
    );
    const date = futureDate(33);
    const booked = await bookDay(date, doctors, (d, s) =>
      d < 2 ? busy.user.id : others[(d - 2) * SLOTS.length + s].user.id,
    );
    expect(booked).toHaveLength(36);
    const statements = await countInsertStatements(["notifications", "mail_outbox", "sms_outbox", "audit_events"]);
    const mailsBefore = api.mailer.messages.length;

    const made = await api.request("POST", "/admin/closures", {
      answer: createdClosure,
      token: admin.token,
      body: { date, reason: "Eid al-Adha", cancelAppointments: true },
    });
    expect(made.status).toBe(201);
    expect(made.body.cancelledTotal).toBe(36);

    // One INSERT per kind of record, not one per appointment.
    expect(await statements()).toEqual({ audit_events: 1, mail_outbox: 1, notifications: 1, sms_outbox: 1 });
    const ids = booked.map((b) => b.id);
    const bell = await api.db
      .select({ userId: notifications.userId, kind: notifications.kind })
      .from(notifications)
      .where(inArray(notifications.appointmentId, ids));
    expect(bell).toHaveLength(36);
    expect(new Set(bell.map((n) => n.kind))).toEqual(new Set(["appointment_cancelled"]));
    const mails = api.mailer.messages.slice(mailsBefore);
    expect(mails).toHaveLength(36);
    expect(mails.filter((m) => m.to === busy.user.email)).toHaveLength(12);
    expect(mails.find((m) => m.to === others[1].user.email)?.text).toContain("la clinique est fermée ce jour-là");
    const texts = await api.db
      .select({ userId: smsOutbox.userId })
      .from(smsOutbox)
      .where(inArray(smsOutbox.userId, [busy.user.id, ...others.map((o) => o.user.id)]));
    expect(texts.filter((t) => t.userId === busy.user.id)).toHaveLength(DAILY_NOTICES);
    expect(texts.filter((t) => t.userId === others[0].user.id)).toHaveLength(0);
    expect(texts).toHaveLength(DAILY_NOTICES + 23);
    // One audit row per appointment, naming its patient.
    const audit = await api.db
      .select({ subject: auditEvents.subjectUserId, entityId: auditEvents.entityId, action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, admin.user.id), eq(auditEvents.entity, "appointment")));
    expect(audit.map((a) => `${a.entityId} ${a.subject} ${a.action}`).sort()).toEqual(
      booked.map((b) => `${b.id} ${b.patientId} update`).sort(),
    );
  });

  it("changes nothing when its last write fails: no cancellation, notice or closed day outlives the rollback", async () => {
    const admin = await api.createAdmin();
    const doctor = await api.createDoctor();
    const patient = await api.createPatient({ phone: "+237670000002", phoneVerified: true, sms: true });
    const date = futureDate(34);
    const booked = await bookDay(date, [doctor], () => patient.user.id);
    // The audit trail refuses this admin's rows: the last thing a closed day writes fails.
    await api.db.execute(
      sql.raw(`create or replace function test_refuse_audit() returns trigger language plpgsql as $$
        begin raise exception 'audit trail unavailable'; end $$`),
    );
    await api.db.execute(
      sql.raw(`create trigger test_refuse_audit before insert on audit_events for each row
        when (new.actor_id = '${admin.user.id}') execute function test_refuse_audit()`),
    );
    const mailsBefore = api.mailer.messages.length;
    try {
      const res = await api.request("POST", "/admin/closures", {
        token: admin.token,
        body: { date, reason: "Storm", cancelAppointments: true },
      });
      expect(res.status).toBe(500);
    } finally {
      await api.db.execute(sql`drop trigger test_refuse_audit on audit_events`);
    }
    const statuses = await api.db
      .select({ status: appointments.status })
      .from(appointments)
      .where(
        inArray(
          appointments.id,
          booked.map((b) => b.id),
        ),
      );
    expect(statuses.map((s) => s.status)).toEqual(Array(SLOTS.length).fill("confirmed"));
    expect(await api.db.select().from(clinicClosures).where(eq(clinicClosures.date, date))).toEqual([]);
    expect(await api.db.select().from(notifications).where(eq(notifications.userId, patient.user.id))).toEqual([]);
    expect(await api.db.select().from(smsOutbox).where(eq(smsOutbox.userId, patient.user.id))).toEqual([]);
    expect(api.mailer.messages.slice(mailsBefore)).toEqual([]);
  });
});

describe("the appointments of a closed day", () => {
  it("are found through the index of active appointments by start, not by reading every doctor's", async () => {
    // 10 doctors' whole days for 200 days: 12,000 active appointments, of which a day holds 60.
    const doctors = await Promise.all(Array.from({ length: 10 }, () => api.createDoctor()));
    const patients = await Promise.all(Array.from({ length: 5 }, () => api.createPatient()));
    const first = futureDate(1);
    await api.db.execute(sql`
      insert into ${appointments} (patient_id, doctor_id, type, status, starts_at)
      select (${`{${patients.map((p) => p.user.id).join(",")}}`}::uuid[])[1 + (day + slot) % 5], d.id, 'online',
        'confirmed', ${first}::date + day * interval '1 day' + slot * interval '1 hour' + interval '8 hours'
      from ${users} d, generate_series(0, 199) day, generate_series(0, 5) slot
      where d.id in (${sql.join(
        doctors.map((d) => sql`${d.user.id}::uuid`),
        sql`, `,
      )})`);
    await api.db.execute(sql`analyze ${appointments}`);
    const day = futureDate(40);
    const query = periodAppointments(api.db, { from: day, to: day }).toSQL();
    const [row] = rowsOf<Record<string, unknown>>(
      await api.db.execute(sql.raw(`explain (format json) ${inline(query.sql, query.params)}`)),
    );
    const scans = scansOf(Object.values(row)[0]).filter((s) => s["Relation Name"] === "appointments");
    expect(scans.map((s) => [s["Node Type"], s["Index Name"]])).toEqual([["Index Scan", "appointments_active_starts"]]);
  }, 180_000);
});

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function scansOf(plan: unknown): Record<string, unknown>[] {
  if (Array.isArray(plan)) return plan.flatMap(scansOf);
  if (!plan || typeof plan !== "object") return [];
  const node = plan as Record<string, unknown>;
  return [node, ...scansOf(node.Plan), ...scansOf(node.Plans)];
}

/** The statement with its parameters written in, for EXPLAIN (which takes no parameters). */
function inline(statement: string, params: unknown[]) {
  return statement.replace(/\$(\d+)/g, (_, n) => {
    const value = params[Number(n) - 1];
    const text = value instanceof Date ? value.toISOString() : String(value);
    return `'${text.replace(/'/g, "''")}'`;
  });
}
