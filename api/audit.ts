// docs/product.md: every read or change of a patient's data by someone else is recorded.
import type { Db } from "./db/index.ts";
import { auditEvents } from "./db/schema.ts";

export async function audit(
  db: Db,
  event: { actorId: string; subjectUserId: string; action: "read" | "create" | "update" | "delete"; entity: string; entityId?: string },
) {
  if (event.actorId === event.subjectUserId) return;
  await db.insert(auditEvents).values(event);
}
