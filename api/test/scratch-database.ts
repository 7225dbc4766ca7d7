// A database that exists for one test file or one benchmark: PGlite (in memory, or in `dataDir`),
// or, given the URL of a PostgreSQL server, a new database on it that `drop` removes again.
// Migrations are run either way. Call `close` before `drop`.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import pg from "pg";
import { openDatabase, type Database } from "../db/index.ts";

/** `url`: the new PostgreSQL database, for processes started on it (absent for PGlite). */
export type ScratchDatabase = Database & { drop(): Promise<void>; url?: string };

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function openScratchDatabase(options: { serverUrl?: string; dataDir?: string; prefix: string }): Promise<ScratchDatabase> {
  const { serverUrl, dataDir, prefix } = options;
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: dataDir ?? "memory://" });
    return { ...database, drop: async () => void (dataDir && rmSync(dataDir, { recursive: true, force: true })) };
  }
  const name = `${prefix}_${randomUUID().replace(/-/g, "")}`;
  await onServer(serverUrl, `create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return { ...database, url: target.toString(), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}
