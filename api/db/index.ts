// Opens the database: a real PostgreSQL server when a URL is given, else embedded PGlite on disk
// (or in memory with dataDir "memory://"). Both run the same committed migrations.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { config } from "../../config.ts";
import { lockDataDir } from "./lock.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded database's client (for backups), when kind is "pglite". */
  pglite?: PGlite;
}

// Any constant both migrators agree on; it names nothing else in this database.
const MIGRATION_LOCK = 727_301_994;

/**
 * Runs the migrations on PostgreSQL under an advisory lock, on a connection of its own: instances
 * started together (a rollout, several web instances and the API) take turns, and each one after
 * the first finds the schema already applied. Without it two migrators race on creating the
 * journal table and on applying the same migration.
 */
async function migratePostgres(databaseUrl: string, migrationsFolder: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client) as never, { migrationsFolder });
  } finally {
    // Ending the session releases the lock even if the unlock was never sent.
    await client.end();
  }
}

/**
 * The database of DATABASE_URL (PostgreSQL), else PGlite in `dataDir`, migrated. Pool size and
 * migrations folder come from the configuration unless given.
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir?: string; poolSize?: number; migrationsFolder?: string }): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? config().migrationsFolder;
  if (options.databaseUrl) {
    await migratePostgres(options.databaseUrl, migrationsFolder);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? config().DB_POOL_SIZE });
    // A connection the server drops (restart, failover, admin termination) must not crash the
    // process: pg emits 'error' on idle and closing clients, which is fatal without a listener.
    const lost = (error: Error) => console.warn(`database connection lost: ${error.message}`);
    pool.on("error", lost);
    pool.on("connect", (client) => client.on("error", lost));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? "memory://";
  // One process per folder (api/db/lock.ts); a folder in memory belongs to this process anyway.
  const release = dataDir.startsWith("memory://") ? () => {} : lockDataDir(dataDir);
  try {
    // pg_trgm backs the name searches (ILIKE '%x%'); migration 0001 creates the extension.
    const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: "pglite",
      ping: async () => void (await db.execute(sql`select 1`)),
      close: async () => {
        await client.close();
        release();
      },
      pglite: client,
    };
  } catch (error) {
    release();
    throw error;
  }
}
