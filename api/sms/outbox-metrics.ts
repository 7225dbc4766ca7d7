// The SMS outbox's gauges (docs/operations.md, docs/sms.md), beside the mail outbox's
// (api/mail/outbox-metrics.ts), read from the table at every scrape so every instance reports the
// same: messages by state, delivery receipts by status, and the oldest unsent message's age.
import { sql } from "drizzle-orm";
import client from "prom-client";
import type { Db } from "../db/index.ts";
import { smsOutbox } from "../db/schema.ts";

const STATES = ["waiting", "retrying", "sent", "failed", "dropped"] as const;

export function watchSmsOutbox(db: Db) {
  for (const name of ["sms_outbox_messages", "sms_delivery_receipts", "sms_outbox_oldest_seconds"])
    client.register.removeSingleMetric(name);
  const read = async () => {
    const [counts] = await db
      .select({
        waiting:
          sql<number>`count(*) filter (where ${smsOutbox.sentAt} is null and ${smsOutbox.failedAt} is null and ${smsOutbox.lastError} is null)`.mapWith(
            Number,
          ),
        retrying:
          sql<number>`count(*) filter (where ${smsOutbox.sentAt} is null and ${smsOutbox.failedAt} is null and ${smsOutbox.lastError} is not null)`.mapWith(
            Number,
          ),
        sent: sql<number>`count(*) filter (where ${smsOutbox.sentAt} is not null)`.mapWith(Number),
        failed:
          sql<number>`count(*) filter (where ${smsOutbox.failedAt} is not null and ${smsOutbox.dropped} is null)`.mapWith(
            Number,
          ),
        dropped: sql<number>`count(*) filter (where ${smsOutbox.dropped} is not null)`.mapWith(Number),
        oldest:
          sql<number>`coalesce(extract(epoch from now() - min(${smsOutbox.createdAt}) filter (where ${smsOutbox.sentAt} is null and ${smsOutbox.failedAt} is null)), 0)`.mapWith(
            Number,
          ),
      })
      .from(smsOutbox);
    const receipts = await db
      .select({ status: smsOutbox.deliveryStatus, n: sql<number>`count(*)`.mapWith(Number) })
      .from(smsOutbox)
      .where(sql`${smsOutbox.deliveryStatus} is not null`)
      .groupBy(smsOutbox.deliveryStatus);
    return { counts, receipts };
  };
  let pending: ReturnType<typeof read> | undefined;
  // One pair of queries per scrape for the three gauges.
  const once = () => (pending ??= read().finally(() => setImmediate(() => (pending = undefined))));
  new client.Gauge({
    name: "sms_outbox_messages",
    help: "Text messages kept in the SMS outbox (30 days): waiting for a first attempt, waiting again after a failed one (retrying), sent, given up (failed), not sent because of no use any more (dropped: expired, unwanted, account deleted)",
    labelNames: ["state"],
    async collect() {
      this.reset();
      const row = await once().catch(() => undefined);
      if (row) for (const state of STATES) this.set({ state }, row.counts[state]);
    },
  });
  new client.Gauge({
    name: "sms_delivery_receipts",
    help: "Sent text messages by the state their delivery receipt gave (DELIVRD, UNDELIV, EXPIRED, REJECTD...)",
    labelNames: ["status"],
    async collect() {
      this.reset();
      const row = await once().catch(() => undefined);
      if (row) for (const r of row.receipts) this.set({ status: r.status ?? "" }, r.n);
    },
  });
  new client.Gauge({
    name: "sms_outbox_oldest_seconds",
    help: "Age of the oldest text message not yet sent nor given up (0 when none)",
    async collect() {
      this.reset();
      const row = await once().catch(() => undefined);
      if (row) this.set(row.counts.oldest);
    },
  });
}
