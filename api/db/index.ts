// Opens the database: a real PostgreSQL server when a URL is given, else embedded PGlite on disk
// (or in memory with dataDir "memory://"). Both run the same committed migrations.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  close(): Promise<void>;
}

// Resolved from the working directory (the project root), not import.meta: the build moves files.
const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "api/db/migrations");

export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) });
    // A connection the server drops (restart, failover, admin termination) must not crash the
    // process: pg emits 'error' on idle and closing clients, which is fatal without a listener.
    const lost = (error: Error) => console.warn(`database connection lost: ${error.message}`);
    pool.on("error", lost);
    pool.on("connect", (client) => client.on("error", lost));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return {
      db,
      kind: "postgres",
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  // pg_trgm backs the name searches (ILIKE '%x%'); migration 0001 creates the extension.
  const client = await PGlite.create(options.dataDir ?? "memory://", { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: "pglite",
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}
