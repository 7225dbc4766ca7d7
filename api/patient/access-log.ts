// 'Who saw my data' (docs/product.md, Who saw my data): the audit events about the patient, that is
// every read or change of their data by someone else, with who did it and in which role. Only the
// patient reads their own list; the data download carries all of it.
import { asc, count, desc, eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { auditEvents, users } from "../db/schema.ts";
import { parse } from "../http.ts";
import { accessLogQuery, type AccessEvent, type AccessLogPage } from "../../contract/patient.ts";
import { pageInfo } from "../query.ts";
import { DELETED_USER } from "../../contract/constants.ts";
import { clinicParts } from "../time.ts";

const aboutPatient = (patientId: string) => eq(auditEvents.subjectUserId, patientId);

function selectEvents(db: Db, patientId: string) {
  return db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      entity: auditEvents.entity,
      entityId: auditEvents.entityId,
      actorId: auditEvents.actorId,
      actorName: users.username,
      actorRole: users.role,
      actorDeletedAt: users.deletedAt,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(aboutPatient(patientId))
    .$dynamic();
}

type Row = Awaited<ReturnType<ReturnType<typeof selectEvents>["execute"]>>[number];

function serializeEvent(r: Row): AccessEvent {
  const { date, time } = clinicParts(r.at);
  return {
    id: r.id,
    at: r.at.toISOString(),
    // The day and wall-clock time in the clinic zone, as the other lists write them.
    date,
    time,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    Actor: r.actorId
      ? {
          id: r.actorId,
          username: r.actorDeletedAt || r.actorName === null ? DELETED_USER : r.actorName,
          role: r.actorRole,
        }
      : null,
  };
}

/** A page of the events about the patient, newest first. */
export async function accessLog(db: Db, patientId: string, query: unknown): Promise<AccessLogPage> {
  const q = parse(accessLogQuery, query);
  const [rows, [{ total }]] = await Promise.all([
    selectEvents(db, patientId)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(auditEvents).where(aboutPatient(patientId)),
  ]);
  return { items: rows.map(serializeEvent), ...pageInfo(total, q.page, q.limit) };
}

/** Every event about the patient, oldest first (for the data download). */
export async function allAccessEvents(db: Db, patientId: string) {
  const rows = await selectEvents(db, patientId).orderBy(asc(auditEvents.at), asc(auditEvents.id));
  return rows.map(serializeEvent);
}
