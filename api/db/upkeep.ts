// The embedded database's upkeep (docs/performance.md, "The embedded database's statistics"):
// PGlite runs PostgreSQL as a single process, without the autovacuum launcher that a server runs
// beside it, so nothing ever gathered the tables' statistics or cleared their dead rows. Without
// statistics the planner guessed every table's size from its file and planned every kept statement
// again at each call (a generic plan never looked cheaper), and the updates (tokens, rate limits,
// the outbox) left dead rows for good. This does what autovacuum would, with its default
// thresholds: a table is analyzed once more than 50 rows plus 10% of it changed since its last
// analysis, and vacuumed once it holds more than 50 dead rows plus 20% of its rows.
//
// PostgreSQL proper has its own autovacuum, with the same thresholds, so a table that never passes
// 50 changed rows is never analysed there either: a new clinic's doctors, specialities, cities and
// first appointments (or the demo data) stay without statistics, and the doctor's cards statement
// was planned again at every call (about 1 ms of the server's CPU a page, bench/README.md). At
// start, after the migrations and the seed, the tables never analysed are analysed once
// (`analyzeNeverAnalyzed`); autovacuum does the rest.
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { Db } from "./index.ts";

/** How often the counters are looked at: each look is one small catalog query. */
const EVERY_MS = 10 * 60_000;

/**
 * The tables due for an analysis or a vacuum. A table never analyzed has no row count yet (-1): it
 * is due at once. PGlite's change counters start again at zero with the process, so changes made
 * before a restart are not counted; the catalog's row counts and statistics stay.
 */
const DUE = `
  select quote_ident(c.relname) as name, c.reltuples < 0 as never,
    c.reltuples < 0 or coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0) as analyze,
    coalesce(s.n_dead_tup, 0) > 50 + 0.2 * greatest(c.reltuples, 0) as vacuum
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
  left join pg_stat_user_tables s on s.relid = c.oid
  where c.relkind = 'r'
  order by c.relname`;

/** One look: analyzes (and vacuums) the tables due; returns what it ran, e.g. "vacuum (analyze) users". */
export async function tidyOnce(client: PGlite): Promise<string[]> {
  const { rows } = await client.query<{ name: string; analyze: boolean; vacuum: boolean }>(DUE);
  const ran: string[] = [];
  for (const table of rows) {
    if (!table.analyze && !table.vacuum) continue;
    // VACUUM runs outside a transaction: PGlite takes each `exec` in turn with the API's statements.
    const command = table.vacuum ? `vacuum (analyze) ${table.name}` : `analyze ${table.name}`;
    await client.exec(command);
    ran.push(command);
  }
  return ran;
}

/** How long an analysis at start waits for a table's lock (another instance's migration holds it). */
const ANALYZE_LOCK_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL: analyzes the tables that were never analysed (or vacuumed); returns what it ran. A
 * failure is logged, not thrown: the statistics only make the plans better. Several instances
 * starting at once may each analyse a table; the second waits for the first's lock, and no table
 * holds a start up longer than `lockTimeoutMs`.
 */
export async function analyzeNeverAnalyzed(
  db: Db,
  {
    log = console.error,
    lockTimeoutMs = ANALYZE_LOCK_TIMEOUT_MS,
  }: { log?: (message: string) => void; lockTimeoutMs?: number } = {},
): Promise<string[]> {
  let tables: string[];
  try {
    const { rows } = (await db.execute(sql.raw(DUE))) as unknown as { rows: { name: string; never: boolean }[] };
    tables = rows.filter((t) => t.never).map((t) => t.name);
  } catch (error) {
    log(`[db] upkeep: ${(error as Error).message}`);
    return [];
  }
  const ran: string[] = [];
  for (const table of tables) {
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = ${Math.round(lockTimeoutMs)}`));
        await tx.execute(sql.raw(`analyze ${table}`));
      });
      ran.push(`analyze ${table}`);
    } catch (error) {
      // drizzle wraps the server's refusal ("Failed query: …"): its cause says why.
      const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      log(`[db] upkeep: analyze ${table}: ${reason}`);
    }
  }
  return ran;
}

/**
 * Tidies the embedded database now (after the migrations and the seed, so that the first pages are
 * planned with statistics), then every EVERY_MS. Returns what stops it; a look under way finishes.
 */
export async function keepTidy(client: PGlite, log: (message: string) => void = console.error) {
  let running: Promise<unknown> | undefined;
  const look = () => {
    running = tidyOnce(client)
      .catch((error) => log(`[db] upkeep: ${(error as Error).message}`))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  await look();
  const timer = setInterval(() => void (running ?? look()), EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
