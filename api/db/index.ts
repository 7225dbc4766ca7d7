// Opens the database: a real PostgreSQL server when a URL is given, else embedded PGlite on disk
// (or in memory with dataDir "memory://"). Both run the same committed migrations.
import { AsyncLocalStorage } from "node:async_hooks";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import type { Logger } from "drizzle-orm/logger";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import prom from "prom-client";
import { config } from "../../config.ts";
import { lockDataDir } from "./lock.ts";
import * as schema from "./schema.ts";
import { keepPgStatements, withNamedStatements } from "./named-statements.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded database's client (for backups), when kind is "pglite". */
  pglite?: PGlite;
}

/** The request transaction under way, if any (`inRequestTransaction`). */
export const currentTransaction = new AsyncLocalStorage<Db>();

/**
 * SQL statements sent, counted by drizzle's logger hook (the statements a page costs: docs/performance.md).
 * Made here rather than with api/metrics.ts's helper, which imports this module's types.
 */
const statementsSent =
  (prom.register.getSingleMetric("db_statements_total") as prom.Counter | undefined) ??
  new prom.Counter({ name: "db_statements_total", help: "SQL statements sent to the database" });

const statementWatchers = new Set<(query: string) => void>();

/** Calls `watcher` with each statement's text until the returned function is called (tests list a page's statements). */
export function watchStatements(watcher: (query: string) => void): () => void {
  statementWatchers.add(watcher);
  return () => statementWatchers.delete(watcher);
}

/** Counts each statement, then hands it to `logger` when one is given. */
const countingLogger = (logger?: Logger): Logger => ({
  logQuery(query, params) {
    statementsSent.inc();
    for (const watcher of statementWatchers) watcher(query);
    logger?.logQuery(query, params);
  },
});

/**
 * The handle the API works with: outside `inRequestTransaction` it is the database itself; inside,
 * every call goes to that request's transaction (and `transaction()` there opens a savepoint). So
 * code written against `db` joins the transaction of the request it serves without passing it on.
 */
function transactionAware(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      const active = currentTransaction.getStore() ?? target;
      const value = Reflect.get(active, property, active);
      return typeof value === "function" ? value.bind(active) : value;
    },
  });
}

/**
 * Runs `work` as if no request transaction were open: for work that outlives the request that
 * started it (the mail worker woken by a route), which must not use that request's transaction,
 * closed by the time it runs.
 */
export function outsideRequestTransaction<T>(work: () => T): T {
  return currentTransaction.exit(work);
}

/**
 * Runs `work` in one transaction that every use of `db` within it (however deep) joins: the
 * change a request makes and what it records about it (its idempotency key) commit together or
 * not at all. Throwing rolls everything back.
 */
export function inRequestTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  // Already inside one (a request passed on to a second guarded route): join it.
  const current = currentTransaction.getStore();
  if (current) return work(current);
  return db.transaction((tx) => currentTransaction.run(tx as unknown as Db, () => work(tx as unknown as Db)));
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
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  migrationsFolder?: string;
  logger?: Logger;
  /** PGlite only: start from this data folder tarball (PGlite's dumpDataDir) instead of an empty one. */
  pgliteTemplate?: Blob;
}): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? config().migrationsFolder;
  if (options.databaseUrl) {
    await migratePostgres(options.databaseUrl, migrationsFolder);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? config().DB_POOL_SIZE });
    // A connection the server drops (restart, failover, admin termination) must not crash the
    // process: pg emits 'error' on idle and closing clients, which is fatal without a listener.
    const lost = (error: Error) => console.warn(`database connection lost: ${error.message}`);
    pool.on("error", lost);
    pool.on("connect", (client) => client.on("error", lost));
    keepPgStatements(pool);
    const db = transactionAware(drizzlePg(pool, { schema, logger: countingLogger(options.logger) }) as unknown as Db);
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
    // pg_trgm backs the name searches (ILIKE '%x%'), btree_gist the exclusion of overlapping visits;
    // migrations 0001 and 0020 create the extensions.
    const client = await PGlite.create(dataDir, {
      extensions: { pg_trgm, btree_gist },
      loadDataDir: options.pgliteTemplate,
    });
    const db = transactionAware(
      drizzlePglite(withNamedStatements(client), { schema, logger: countingLogger(options.logger) }) as unknown as Db,
    );
    // On a template this applies nothing (its journal lists every migration) unless the template
    // is older than the migrations folder.
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
