// The mail outbox's gauges (docs/operations.md), apart from api/metrics.ts because that module is
// also bundled into the web build, which has no business with the database schema.
import { sql } from "drizzle-orm";
import client from "prom-client";
import type { Db } from "../db/index.ts";
import { mailOutbox } from "../db/schema.ts";

/**
 * The mail outbox (api/mail/outbox.ts), read at every scrape: messages waiting for a first attempt,
 * waiting again after a failed one, and given up; and how long the oldest unsent one has waited.
 * A scrape while the database is unreachable reports no value rather than an old one.
 */
export function watchMailOutbox(db: Db) {
  for (const name of ["mail_outbox_messages", "mail_outbox_oldest_seconds"]) client.register.removeSingleMetric(name);
  const read = async () => {
    const [row] = await db
      .select({
        waiting:
          sql<number>`count(*) filter (where ${mailOutbox.failedAt} is null and ${mailOutbox.lastError} is null)`.mapWith(
            Number,
          ),
        retrying:
          sql<number>`count(*) filter (where ${mailOutbox.failedAt} is null and ${mailOutbox.lastError} is not null)`.mapWith(
            Number,
          ),
        failed: sql<number>`count(*) filter (where ${mailOutbox.failedAt} is not null)`.mapWith(Number),
        oldest:
          sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.failedAt} is null)), 0)`.mapWith(
            Number,
          ),
      })
      .from(mailOutbox);
    return row;
  };
  let pending: ReturnType<typeof read> | undefined;
  // One query per scrape for both gauges.
  const once = () => (pending ??= read().finally(() => setImmediate(() => (pending = undefined))));
  new client.Gauge({
    name: "mail_outbox_messages",
    help: "Mail in the outbox: waiting for a first attempt, waiting again after a failed attempt (retrying), given up (failed)",
    labelNames: ["state"],
    async collect() {
      this.reset();
      const row = await once().catch(() => undefined);
      if (!row) return;
      this.set({ state: "waiting" }, row.waiting);
      this.set({ state: "retrying" }, row.retrying);
      this.set({ state: "failed" }, row.failed);
    },
  });
  new client.Gauge({
    name: "mail_outbox_oldest_seconds",
    help: "Age of the oldest mail not yet sent nor given up (0 when none)",
    async collect() {
      this.reset();
      const row = await once().catch(() => undefined);
      if (row) this.set(row.oldest);
    },
  });
}
