// Several instances starting together against one fresh PostgreSQL database (a rollout, two web
// instances and the API) must all start, and the schema must be applied once. PostgreSQL only:
// the embedded database has a single owner (see lock.test.ts).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./index.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!serverUrl)("migrations on PostgreSQL", () => {
  it("let instances started at the same moment all start, applying each migration once", async () => {
    const name = `mig_${randomUUID().replace(/-/g, "")}`;
    await onServer(serverUrl!, (c) => c.query(`create database ${name}`));
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    try {
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openDatabase({ databaseUrl: url.toString(), poolSize: 2 })),
      );
      for (const result of opened) if (result.status === "fulfilled") await result.value.close();
      expect(opened.map((r) => (r.status === "rejected" ? String(r.reason) : "started"))).toEqual([
        "started",
        "started",
        "started",
      ]);

      const journal = JSON.parse(readFileSync(path.resolve("api/db/migrations/meta/_journal.json"), "utf8")) as {
        entries: unknown[];
      };
      const applied = await onServer(url.toString(), (c) => c.query("select hash from drizzle.__drizzle_migrations"));
      expect(applied.rowCount).toBe(journal.entries.length);
      expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(journal.entries.length);
    } finally {
      await onServer(serverUrl!, (c) => c.query(`drop database if exists ${name} with (force)`));
    }
  }, 60_000);
});
