// A database that exists for one test file or one benchmark: PGlite (in memory, or in `dataDir`),
// or, given the URL of a PostgreSQL server, a new database on it that `drop` removes again.
// Given a template (api/test/database-template.ts: migrated once per test run), the new database
// is a copy of it: PGlite loads the template's data folder tarball, PostgreSQL runs
// CREATE DATABASE … TEMPLATE. Without one, the migrations run from scratch. Either way the
// migrations are run on the result, so a stale template is brought up to date rather than trusted.
// Call `close` before `drop`.
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import pg from "pg";
import { openDatabase, type Database } from "../db/index.ts";

/**
 * `url`: the new PostgreSQL database, for processes started on it (absent for PGlite). `reopen` opens
 * the same database again (a restart), after `close` or beside the first handle.
 */
export type ScratchDatabase = Database & { drop(): Promise<void>; reopen(): Promise<Database>; url?: string };

/** What a test run's databases are copied from: a PGlite tarball on disk, or a PostgreSQL database. */
export type DatabaseTemplate = { kind: "pglite"; tarball: string } | { kind: "postgres"; database: string };

export async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

export async function openScratchDatabase(options: {
  serverUrl?: string;
  dataDir?: string;
  prefix: string;
  template?: DatabaseTemplate;
}): Promise<ScratchDatabase> {
  const { serverUrl, dataDir, prefix, template } = options;
  if (!serverUrl) {
    const pgliteTemplate = template?.kind === "pglite" ? new Blob([readFileSync(template.tarball)]) : undefined;
    const database = await openDatabase({ dataDir: dataDir ?? "memory://", pgliteTemplate });
    return {
      ...database,
      drop: async () => void (dataDir && rmSync(dataDir, { recursive: true, force: true })),
      reopen: () =>
        dataDir ? openDatabase({ dataDir }) : Promise.reject(new Error("an in-memory database cannot be reopened")),
    };
  }
  const name = `${prefix}_${randomUUID().replace(/-/g, "")}`;
  const copy = template?.kind === "postgres" ? ` template ${template.database}` : "";
  await onServer(serverUrl, `create database ${name}${copy}`);
  const url = databaseUrl(serverUrl, name);
  const database = await openDatabase({ databaseUrl: url });
  return {
    ...database,
    url,
    reopen: () => openDatabase({ databaseUrl: url }),
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
