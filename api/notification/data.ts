// The bell (docs/product.md, The bell): what needs a user's attention, one row per recipient,
// written in the transaction of the change it reports, so a change and its notice never part.
// Viewing the list marks the entries it shows as seen; the bell counts the unseen ones.
import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/index.ts";
import { appointments, doctorSpecialities, doctors, notifications, users } from "../db/schema.ts";
import { parse } from "../http.ts";
import { notificationListQuery, type Notification, type NotificationKind } from "../../contract/notification.ts";
import { pageInfo } from "../query.ts";
import { clinicParts } from "../time.ts";

interface Notice {
  userId: string;
  appointmentId: string;
  kind: NotificationKind;
  actorId: string | null;
}

/** Tells one user about a change to an appointment (inside the change's transaction). */
export async function notify(tx: Db, notice: Notice) {
  if (notice.userId === notice.actorId) return;
  await tx.insert(notifications).values(notice);
}

/**
 * A new open request: every verified doctor who may answer it (docs/product.md, Open requests and
 * proposals: its speciality, or any for a doctor without one) is told, in one statement.
 */
export async function notifyOpenRequest(tx: Db, appointmentId: string, patientId: string, specialityId: number) {
  await tx.execute(sql`
    insert into ${notifications} (user_id, appointment_id, kind, actor_id)
    select d.user_id, ${appointmentId}::uuid, 'open_request', ${patientId}::uuid
    from ${doctors} d join ${users} u on u.id = d.user_id
    where d.verification = 'verified' and u.deleted_at is null
      and (exists (select 1 from ${doctorSpecialities} s where s.doctor_id = d.user_id and s.speciality_id = ${specialityId})
        or not exists (select 1 from ${doctorSpecialities} s where s.doctor_id = d.user_id))`);
}

/** The request is no longer open (taken or cancelled): the other doctors have nothing to answer. */
export async function withdrawOpenRequest(tx: Db, appointmentId: string) {
  await tx
    .delete(notifications)
    .where(and(eq(notifications.appointmentId, appointmentId), eq(notifications.kind, "open_request")));
}

/** The user acted on the appointment (proposed, confirmed, cancelled...): its notices to them need no more attention. */
export async function markSeenOn(tx: Db, userId: string, appointmentId: string) {
  await tx
    .update(notifications)
    .set({ seenAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.appointmentId, appointmentId),
        isNull(notifications.seenAt),
      ),
    );
}

/** The bell count. */
export async function unseenCount(db: Db, userId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.seenAt)));
  return n;
}

const actors = alias(users, "actor");

/**
 * A page of the user's notifications, newest first, each with its appointment's slot; the entries
 * shown are marked seen in the same call, and `new` says which were unseen until now.
 */
export async function viewNotifications(db: Db, userId: string, query: unknown) {
  const q = parse(notificationListQuery, query);
  const mine = eq(notifications.userId, userId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        createdAt: notifications.createdAt,
        appointmentId: notifications.appointmentId,
        startsAt: appointments.startsAt,
        status: appointments.status,
        category: appointments.category,
        doctorId: appointments.doctorId,
        actorName: actors.username,
        actorDeletedAt: actors.deletedAt,
      })
      .from(notifications)
      .innerJoin(appointments, eq(appointments.id, notifications.appointmentId))
      .leftJoin(actors, eq(actors.id, notifications.actorId))
      .where(mine)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(notifications).where(mine),
  ]);
  // Only the rows this call turned from unseen to seen come back: two views at once agree.
  const fresh = rows.length
    ? await db
        .update(notifications)
        .set({ seenAt: new Date() })
        .where(
          and(
            mine,
            inArray(
              notifications.id,
              rows.map((r) => r.id),
            ),
            isNull(notifications.seenAt),
          ),
        )
        .returning({ id: notifications.id })
    : [];
  const freshIds = new Set(fresh.map((r) => r.id));
  const items = rows.map((r): Notification => {
    const { date, iso } = clinicParts(r.startsAt);
    return {
      id: r.id,
      kind: r.kind,
      new: freshIds.has(r.id),
      createdAt: r.createdAt.toISOString(),
      // An erased account keeps no name: null, which the screens write as a deleted user.
      actorName: r.actorDeletedAt ? null : r.actorName,
      Appointment: {
        id: r.appointmentId,
        date,
        time: iso,
        status: r.status,
        category: r.category,
        assigned: r.doctorId !== null,
      },
    };
  });
  return { items, ...pageInfo(total, q.page, q.limit), unseen: await unseenCount(db, userId) };
}

/**
 * The bell's part of a page's summary: the count, and with `?notifications=<page>` (the bell's own
 * page) that page of the list, viewed first, so the count already leaves out what it shows.
 */
export async function bellOf(db: Db, userId: string, query: { notifications?: unknown }) {
  if (query.notifications === undefined) return { count: await unseenCount(db, userId) };
  const { unseen, ...notifications } = await viewNotifications(db, userId, { page: query.notifications });
  return { count: unseen, notifications };
}

/** 'Mark all as seen'. */
export async function markAllSeen(db: Db, userId: string) {
  await db
    .update(notifications)
    .set({ seenAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.seenAt)));
  return { unseen: 0 };
}
