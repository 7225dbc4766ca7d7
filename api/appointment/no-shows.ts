// No-shows (docs/product.md, No-shows): what a doctor is told of a patient wherever the doctor sees
// one of the patient's appointments or records.
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { appointments } from "../db/schema.ts";

/**
 * How many of the patient's appointments, with any doctor, are `missed` with a start in the last 12
 * months: a subquery on the patient's index (appointments_patient_starts), for a select list.
 */
export function missedInLastYear(patientId: PgColumn): SQL<number> {
  return sql<number>`(select count(*)::int from ${appointments} missed where missed.patient_id = ${patientId} and missed.status = 'missed' and missed.starts_at > now() - interval '12 months')`;
}
