// docs/product.md: every read or change of a patient's data by someone else is recorded.
import { sql } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { appointments, auditEvents } from "./db/schema.ts";
import { inIds } from "./query.ts";

/**
 * Records that `actorId` read or changed the data of these patients: one row per distinct patient,
 * in one statement (the list calls read many patients at once).
 */
export async function auditPatients(
  db: Db,
  actorId: string,
  patientIds: Iterable<string>,
  action: "read" | "create" | "update",
  entity: string,
  entityId?: string,
) {
  const subjects = [...new Set(patientIds)].filter((id) => id !== actorId);
  if (subjects.length === 0) return;
  await db
    .insert(auditEvents)
    .values(subjects.map((subjectUserId) => ({ actorId, subjectUserId, action, entity, entityId })));
}

/**
 * Records that `actorId` changed these appointments: one row per appointment naming its patient
 * (none for the actor's own), in one statement whatever their number (a closed day's thousands).
 */
export async function auditAppointments(db: Db, actorId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db.execute(sql`
    insert into ${auditEvents} (actor_id, subject_user_id, action, entity, entity_id)
    select ${actorId}::uuid, a.patient_id, 'update', 'appointment', a.id::text
    from ${appointments} a
    where ${inIds(sql`a.id`, ids)} and a.patient_id <> ${actorId}::uuid`);
}
