// Reminder mails before a confirmed appointment (docs/mail.md, Reminders): REMINDER_HOURS before its
// start (24 and 2 by default). A reminder is queued in the outbox in the same transaction that
// inserts its row in appointment_reminders, whose primary key (appointment, hours, start) admits it
// once: two instances, or two rounds racing after a restart, queue it once between them.
import { and, eq, gt, inArray, lte } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { appointmentReminders, appointments } from "./db/schema.ts";
import type { OutboxMailer } from "./mail/outbox.ts";
import { queueReminder } from "./notifications.ts";
import { startRounds } from "./rounds.ts";

const HOUR = 3_600_000;

/**
 * Queues the reminders due at `now`: for each confirmed appointment not started yet, every
 * configured time before its start that has been reached. Kinds reached together (an appointment
 * confirmed 1 hour before its start) make one mail, not one per kind. Returns the mails queued.
 */
export async function queueDueReminders(
  db: Db,
  mailer: OutboxMailer,
  hours: readonly number[],
  now = new Date(),
): Promise<number> {
  if (hours.length === 0) return 0;
  const horizon = new Date(now.getTime() + Math.max(...hours) * HOUR);
  const soon = await db
    .select({ id: appointments.id, startsAt: appointments.startsAt })
    .from(appointments)
    .where(
      and(eq(appointments.status, "confirmed"), gt(appointments.startsAt, now), lte(appointments.startsAt, horizon)),
    );
  if (soon.length === 0) return 0;
  const done = await db
    .select({
      appointmentId: appointmentReminders.appointmentId,
      hoursBefore: appointmentReminders.hoursBefore,
      startsAt: appointmentReminders.startsAt,
    })
    .from(appointmentReminders)
    .where(
      inArray(
        appointmentReminders.appointmentId,
        soon.map((a) => a.id),
      ),
    );
  const seen = new Set(done.map((r) => `${r.appointmentId}|${r.hoursBefore}|${r.startsAt.getTime()}`));

  let queued = 0;
  for (const a of soon) {
    const due = hours.filter(
      (h) => a.startsAt.getTime() - h * HOUR <= now.getTime() && !seen.has(`${a.id}|${h}|${a.startsAt.getTime()}`),
    );
    if (due.length === 0) continue;
    queued += await db.transaction(async (tx) => {
      // Still confirmed at that time? (Cancelled or moved since the list was read: nothing to do.)
      const [current] = await tx
        .select({ status: appointments.status, startsAt: appointments.startsAt })
        .from(appointments)
        .where(eq(appointments.id, a.id))
        .for("share");
      if (current?.status !== "confirmed" || current.startsAt.getTime() !== a.startsAt.getTime()) return 0;
      const claimed = await tx
        .insert(appointmentReminders)
        .values(due.map((h) => ({ appointmentId: a.id, hoursBefore: h, startsAt: a.startsAt })))
        .onConflictDoNothing()
        .returning({ hoursBefore: appointmentReminders.hoursBefore });
      // Another instance claimed them first: it queues the mail.
      return claimed.length ? queueReminder(tx, mailer, a.id) : 0;
    });
  }
  if (queued) mailer.wake();
  return queued;
}

export interface ReminderWorkerOptions {
  db: Db;
  mailer: OutboxMailer;
  /** Hours before the start (config REMINDER_HOURS); none: the worker does nothing. */
  hours: readonly number[];
  /** How often it looks for due reminders: a reminder leaves at most this late. */
  pollMs?: number;
}

/** Looks for due reminders at start and every `pollMs`, in rounds like the outbox workers' (rounds.ts). */
export function startReminderWorker({ db, mailer, hours, pollMs = 60_000 }: ReminderWorkerOptions) {
  const rounds = startRounds(
    async () => {
      if (hours.length > 0) await queueDueReminders(db, mailer, hours);
    },
    { pollMs, label: "[mail] reminders" },
  );
  return { settle: rounds.settle, stop: rounds.stop };
}
