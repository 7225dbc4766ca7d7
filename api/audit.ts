// docs/product.md: every read or change of a patient's data by someone else is recorded.
import type { Db } from "./db/index.ts";
import { auditEvents } from "./db/schema.ts";

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
