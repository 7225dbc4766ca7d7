// The database's upkeep (api/db/upkeep.ts): PGlite has no autovacuum, so the app gathers the
// statistics and clears the dead rows itself, with autovacuum's thresholds, and only where due; on
// PostgreSQL it analyses at start the tables autovacuum never analysed.
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "./index.ts";
import { openScratchDatabase } from "../test/scratch-database.ts";
import { analyzeNeverAnalyzed, keepTidy, tidyOnce } from "./upkeep.ts";

let client: PGlite;
beforeEach(async () => {
  client = await PGlite.create();
  await client.exec(
    `create table notes (id int primary key, body text); insert into notes select g, 'x' from generate_series(1, 200) g`,
  );
});
afterEach(() => client.close());

/** PostgreSQL passes a process's change counters on at most once a second: now, for the test. */
async function countersFlushed() {
  await client.query("select pg_stat_force_next_flush()");
  await client.query("select 1");
}

const statsOf = async (table: string) =>
  (
    await client.query<{ reltuples: number; dead: number | null }>(
      `select c.reltuples, s.n_dead_tup as dead from pg_class c left join pg_stat_user_tables s on s.relid = c.oid where c.relname = $1`,
      [table],
    )
  ).rows[0];

describe("the embedded database's upkeep", () => {
  it("analyzes a table never analyzed, then leaves it alone until enough of it changes", async () => {
    await countersFlushed();
    expect((await statsOf("notes")).reltuples).toBe(-1);
    expect(await tidyOnce(client)).toEqual(["analyze notes"]);
    expect((await statsOf("notes")).reltuples).toBe(200);
    expect(await tidyOnce(client)).toEqual([]);
    // 50 rows plus 10% of 200 is the threshold: 60 new rows pass it, 20 did not.
    await client.exec(`insert into notes select g, 'y' from generate_series(201, 220) g`);
    await countersFlushed();
    expect(await tidyOnce(client)).toEqual([]);
    await client.exec(`insert into notes select g, 'y' from generate_series(221, 280) g`);
    await countersFlushed();
    expect(await tidyOnce(client)).toEqual(["analyze notes"]);
    expect((await statsOf("notes")).reltuples).toBe(280);
  });

  it("vacuums a table once its dead rows pass 50 plus 20% of it", async () => {
    await countersFlushed();
    await tidyOnce(client);
    await client.exec(`delete from notes where id <= 100`);
    await countersFlushed();
    expect((await statsOf("notes")).dead).toBe(100);
    expect(await tidyOnce(client)).toEqual(["vacuum (analyze) notes"]);
    expect((await statsOf("notes")).dead).toBe(0);
  });

  it("quotes the names it takes from the catalog, and keeps to the app's own schema", async () => {
    await client.exec(
      `create table "odd ""name""; drop table notes" (id int); create schema other; create table other.kept (id int)`,
    );
    expect(await tidyOnce(client)).toEqual(["analyze notes", `analyze "odd ""name""; drop table notes"`]);
    expect((await statsOf("notes")).reltuples).toBe(200);
    expect((await statsOf("kept")).reltuples).toBe(-1);
  });

  it("a failure is logged, not thrown", async () => {
    const logged: string[] = [];
    await client.close();
    await expect(keepTidy(client, (line) => logged.push(line))).resolves.toBeTypeOf("function");
    expect(logged).toEqual([expect.stringMatching(/^\[db\] upkeep: /)]);
    client = await PGlite.create();
  });

  it("a migrated database has statistics for every table after the first look", async () => {
    const database = await openDatabase({});
    try {
      const pglite = database.pglite!;
      const never = `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.reltuples < 0`;
      expect((await pglite.query<{ n: number }>(never)).rows[0].n).toBeGreaterThan(10);
      const stop = await keepTidy(pglite);
      await stop();
      expect((await pglite.query<{ n: number }>(never)).rows[0].n).toBe(0);
    } finally {
      await database.close();
    }
  });
});

// Run by both test runs: on PGlite, and on the PostgreSQL server of TEST_DATABASE_URL (a new
// database, migrated from scratch, so that no table was analysed yet).
describe("the statistics of the tables never analysed (PostgreSQL's autovacuum leaves the small ones)", () => {
  const neverAnalyzed = `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.reltuples < 0`;

  it("analyzes every table never analysed, once, and a failure is logged, not thrown", async () => {
    const database = await openScratchDatabase({ serverUrl: process.env.TEST_DATABASE_URL, prefix: "u" });
    try {
      const count = async () =>
        ((await database.db.execute(sql.raw(neverAnalyzed))) as unknown as { rows: { n: number }[] }).rows[0].n;
      expect(await count()).toBeGreaterThan(10);
      const ran = await analyzeNeverAnalyzed(database.db);
      expect(ran).toContain("analyze appointments");
      expect(ran).toContain("analyze users");
      expect(await count()).toBe(0);
      expect(await analyzeNeverAnalyzed(database.db)).toEqual([]);
    } finally {
      await database.close();
      await database.drop();
    }
    const logged: string[] = [];
    expect(await analyzeNeverAnalyzed(database.db, { log: (line) => logged.push(line) })).toEqual([]);
    expect(logged).toEqual([expect.stringMatching(/^\[db\] upkeep: /)]);
  });

  // PGlite has one connection: nothing else can hold a lock there.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "does not wait on a table another session holds (a migration under way): the others are analysed",
    async () => {
      const database = await openScratchDatabase({ serverUrl: process.env.TEST_DATABASE_URL, prefix: "u" });
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query("begin; lock table users in access exclusive mode");
        const logged: string[] = [];
        const ran = await analyzeNeverAnalyzed(database.db, { log: (line) => logged.push(line), lockTimeoutMs: 200 });
        expect(ran).toContain("analyze appointments");
        expect(ran).not.toContain("analyze users");
        expect(logged).toEqual([expect.stringMatching(/^\[db\] upkeep: analyze users: .*lock timeout/)]);
        await other.query("rollback");
        expect(await analyzeNeverAnalyzed(database.db)).toEqual(["analyze users"]);
      } finally {
        await other.end();
        await database.close();
        await database.drop();
      }
    },
  );
});
