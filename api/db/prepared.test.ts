// Statements prepared once (api/db/prepared.ts): a prepared statement holds a shape, never a
// user's data, so one user's answer never reaches another; a revoked token is refused by the very
// next prepared lookup; hostile values stay values; a request transaction's own changes are seen;
// and a change of the schema under a running server does not break the statement. On PGlite and
// PostgreSQL alike (TEST_DATABASE_URL).
import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setUpApi } from "../test/harness.ts";
import { PAGE_SCOPE_HEADER } from "../../contract/api-transport.ts";
import { closePageScope, openPageScope } from "../auth/page-scope.ts";
import { inRequestTransaction } from "./index.ts";
import { prepared } from "./prepared.ts";
import { KEPT_STATEMENTS, markPrepared } from "./named-statements.ts";
import { users } from "./schema.ts";

const api = setUpApi();

const byName = prepared("test_user_by_name", (db) =>
  db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`${users.username} = ${sql.placeholder("name")}`),
);

describe("statements prepared once", () => {
  it("one user's answer never reaches another: two users' tokens alternate, in one page scope and without", async () => {
    const one = await api.createPatient({ username: "Prepared One" });
    const two = await api.createPatient({ username: "Prepared Two" });
    const doctor = await api.createDoctor({ username: "Dr Prepared" });
    const scope = openPageScope();
    try {
      for (let i = 0; i < 3; i++) {
        for (const headers of [{ [PAGE_SCOPE_HEADER]: scope! }, {}] as Record<string, string>[]) {
          const [a, b] = await Promise.all([
            api.request("GET", "/patient/me", { token: one.token, headers }),
            api.request("GET", "/patient/me", { token: two.token, headers }),
          ]);
          expect([a.status, b.status]).toEqual([200, 200]);
          expect((a.body as { username: string }).username).toBe("Prepared One");
          expect((b.body as { username: string }).username).toBe("Prepared Two");
        }
      }
    } finally {
      closePageScope(scope);
    }
    // The summaries, prepared too, answer each user with their own.
    expect((await api.request("GET", "/doctor/summary", { token: doctor.token })).status).toBe(200);
    expect((await api.request("GET", "/doctor/summary", { token: one.token })).status).toBe(403);
  });

  it("a revoked token is refused by the next prepared lookup, while another user's still works", async () => {
    const leaver = await api.createPatient({ username: "Prepared Leaver" });
    const stayer = await api.createPatient({ username: "Prepared Stayer" });
    // Warm: the statement is prepared (and on PostgreSQL parsed by the connection) before the logout.
    for (let i = 0; i < 6; i++)
      expect((await api.request("GET", "/patient/summary", { token: leaver.token })).status).toBe(200);
    expect((await api.request("POST", "/auth/logout", { token: leaver.token })).status).toBe(204);
    expect((await api.request("GET", "/patient/summary", { token: leaver.token })).status).toBe(401);
    expect((await api.request("GET", "/patient/summary", { token: stayer.token })).status).toBe(200);
  });

  it("hostile values stay values", async () => {
    const { user } = await api.createPatient({ username: "Prepared Plain" });
    for (const hostile of ["x' or '1'='1", "Prepared Plain' --", "%", "$1", "\\", "Prepared Plain\u0000"]) {
      const found = await byName(api.db, { name: hostile }).catch((error: unknown) => error);
      // A NUL byte is refused by PostgreSQL; anything else finds nobody.
      if (found instanceof Error) expect(hostile).toContain("\u0000");
      else expect(found).toEqual([]);
    }
    expect(await byName(api.db, { name: "Prepared Plain" })).toEqual([{ id: user.id, username: "Prepared Plain" }]);
    // A hostile bearer token is only ever a hash's input.
    for (const token of ["' or 1=1 --", "x".repeat(5000)])
      expect((await api.request("GET", "/patient/summary", { token })).status).toBe(401);
  });

  it("inside a request transaction it sees the transaction's own changes", async () => {
    const { user } = await api.createPatient({ username: "Prepared Before" });
    await byName(api.db, { name: "Prepared Before" });
    await inRequestTransaction(api.db, async (tx) => {
      await tx.update(users).set({ username: "Prepared Inside" }).where(sql`${users.id} = ${user.id}`);
      expect(await byName(api.db, { name: "Prepared Inside" })).toEqual([{ id: user.id, username: "Prepared Inside" }]);
    });
  });

  it("survives a change of the schema that changes what it returns", async () => {
    const { user, token } = await api.createPatient({ username: "Prepared Schema" });
    for (let i = 0; i < 6; i++) expect(await byName(api.db, { name: "Prepared Schema" })).toHaveLength(1);
    expect((await api.request("GET", "/patient/summary", { token })).status).toBe(200);
    // As another instance's migration would: the column's type changes under the prepared statements.
    await api.db.execute(sql`alter table users alter column username type varchar(300)`);
    expect(await byName(api.db, { name: "Prepared Schema" })).toEqual([{ id: user.id, username: "Prepared Schema" }]);
    expect((await api.request("GET", "/patient/summary", { token })).status).toBe(200);
  });

  it("a statement kept without being marked survives a change of the schema too, on every pooled connection", async () => {
    const { user } = await api.createPatient({ username: "Kept Schema" });
    const read = () =>
      api.db.select({ id: users.id, username: users.username }).from(users).where(sql`${users.id} = ${user.id}`);
    // Side by side, so that several pooled connections keep it.
    const readOften = () => Promise.all(Array.from({ length: 8 }, read));
    for (let i = 0; i < 3; i++) await readOften();
    // The column's type changes under the kept statements (the test before made it varchar(300)).
    await api.db.execute(sql`alter table users alter column username type text`);
    for (let i = 0; i < 3; i++)
      for (const rows of await readOften()) expect(rows).toEqual([{ id: user.id, username: "Kept Schema" }]);
  });
});

// On PGlite every statement with values is kept as a named statement, the most recently used
// KEPT_STATEMENTS of them (api/db/named-statements.ts); PostgreSQL's connections keep theirs by the
// same rule (the first KEPT_STATEMENTS each, tested above).
describe.skipIf(process.env.TEST_DATABASE_URL)("the statements PGlite keeps without being marked", () => {
  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
  const kept = async () =>
    rows<{ n: number }>(await api.db.execute(sql`select count(*)::int as n from pg_prepared_statements`))[0].n;

  it("a statement with values is kept once and answers every call with its own values; a search by fragment is not kept", async () => {
    const before = await kept();
    for (const n of [1, 2, 3])
      expect(rows(await api.db.execute(sql`select ${n}::int * 2 as doubled, ${`tag ${n}`}::text as tag`))).toEqual([
        { doubled: n * 2, tag: `tag ${n}` },
      ]);
    expect(await kept()).toBe(before + 1);
    // Its values are read as PGlite reads them for drizzle: times and dates kept as text, arrays and JSON parsed.
    const typed = (value: SQL) =>
      sql`select ${value} as n, '2026-01-02 03:04:05+00'::timestamptz as at, '2026-01-02'::date as day, array[1, 2]::int[] as ids, array['2026-01-02'::date] as days, '{"a": [1]}'::json as doc`;
    const keptRow = rows(await api.db.execute(typed(sql`${7}::int`)))[0];
    const plainRow = rows(await api.db.execute(typed(sql.raw("7"))))[0];
    expect(keptRow).toEqual(plainRow);
    expect(keptRow).toEqual({
      n: 7,
      at: expect.stringMatching(/^2026-01-02 03:04:05/),
      day: "2026-01-02",
      ids: [1, 2],
      days: expect.stringContaining("2026-01-02"),
      doc: { a: [1] },
    });
    const { user } = await api.createPatient({ username: "Kept Fragment" });
    for (const fragment of ["%Kept Frag%", "%nobody%"])
      await api.db.select({ id: users.id }).from(users).where(sql`${users.username} ilike ${fragment}`);
    expect(
      await api.db.select({ id: users.id }).from(users).where(sql`${users.username} ilike ${"%Kept Frag%"}`),
    ).toEqual([{ id: user.id }]);
    // The patient's creation kept its own statements; the search by fragment added none.
    const afterSearch = await kept();
    await api.db.select({ id: users.id }).from(users).where(sql`${users.username} ilike ${"%again%"}`);
    expect(await kept()).toBe(afterSearch);
  });

  it.each([
    ["kept", (id: string) => sql`${users.id} = ${id}`],
    [
      "searched by a fragment (not kept)",
      (id: string) => sql`${users.id} = ${id} and ${users.username} ilike ${"%Turning%"}`,
    ],
  ])(
    "lets the event loop turn while statements %s keep coming: work waiting for the next turn is not held back until they stop",
    async (_, where) => {
      const { user } = await api.createPatient({ username: "Turning Patient" });
      let done = 0;
      let doneWhenTheLoopTurned: number | undefined;
      setImmediate(() => {
        doneWhenTheLoopTurned = done;
      });
      // 20 pages at a time, each a chain of statements, as at 20 connections: far more than TURN_EVERY_MS of work.
      const page = async () => {
        for (let i = 0; i < 7; i++) {
          await api.db.select({ id: users.id }).from(users).where(where(user.id));
          done++;
        }
      };
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          for (let i = 0; i < 20; i++) await page();
        }),
      );
      expect(done).toBe(20 * 20 * 7);
      expect(doneWhenTheLoopTurned).toBeDefined();
      expect(doneWhenTheLoopTurned).toBeLessThan(done);
    },
  );

  it("keeps at most KEPT_STATEMENTS: the least recently used are closed, and run again when asked", async () => {
    const text = (i: number) => sql`select ${i}::int as ${sql.raw(`v${i}`)}`;
    const first = rows<Record<string, number>>(await api.db.execute(text(0)));
    expect(first).toEqual([{ v0: 0 }]);
    // A marked statement, used before all the others: it must outlive them.
    const markedText = "select $1::int as marked_before_the_others";
    markPrepared(markedText);
    await api.db.execute(sql`select ${1}::int as marked_before_the_others`);
    const markedKept = async () =>
      rows<{ n: number }>(
        await api.db.execute(
          sql`select count(*)::int as n from pg_prepared_statements where statement = ${markedText}`,
        ),
      )[0].n;
    expect(await markedKept()).toBe(1);
    for (let i = 1; i <= KEPT_STATEMENTS + 20; i++) await api.db.execute(text(i));
    const unmarked = Number(
      rows<{ n: number }>(
        await api.db.execute(
          sql`select count(*)::int as n from pg_prepared_statements where statement like 'select $1::int as v%'`,
        ),
      )[0].n,
    );
    expect(unmarked).toBeLessThanOrEqual(KEPT_STATEMENTS);
    expect(unmarked).toBeGreaterThan(KEPT_STATEMENTS / 2);
    // The first one was closed to make room: asked again, it is parsed again and answers.
    expect(rows(await api.db.execute(text(0)))).toEqual([{ v0: 0 }]);
    // The marked statement was not closed to make room.
    expect(await markedKept()).toBe(1);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  "the statements a PostgreSQL connection keeps without being marked",
  () => {
    const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

    it("a statement with values is kept on its connection and answers each call with its own values; a search by fragment is not kept", async () => {
      await api.db.transaction(async (tx) => {
        // One connection: the transaction's.
        const keptHere = async () =>
          rows<{ statement: string }>(
            await tx.execute(sql`select statement from pg_prepared_statements where name like 'kept\_%'`),
          ).map((r) => r.statement);
        for (const n of [1, 2, 3])
          expect(rows(await tx.execute(sql`select ${n}::int * 3 as tripled`))).toEqual([{ tripled: n * 3 }]);
        expect(await keptHere()).toContain("select $1::int * 3 as tripled");
        await tx.select({ id: users.id }).from(users).where(sql`${users.username} ilike ${"%kept%"}`);
        expect((await keptHere()).some((text) => text.includes("ilike"))).toBe(false);
      });
    });
  },
);
