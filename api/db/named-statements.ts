// Statements kept as named statements, parsed once (api/db/prepared.ts, docs/performance.md), on
// both databases: the PGlite client runs the marked texts of prepared.ts and the most recently used
// others as named statements; each PostgreSQL connection keeps the first texts it runs
// (keepPgStatements). A module of its own because the connection (api/db/index.ts) uses it and
// prepared.ts uses the connection's transaction: together they would import each other.
import { createHash } from "node:crypto";
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";
import type pg from "pg";

/** The texts of prepared statements: the PGlite client parses these once as named statements. */
const preparedTexts = new Set<string>();

/**
 * Every other statement with parameters is named too, the most recently used few hundred of them:
 * PGlite has no statement cache of its own, and a statement parsed and planned at every call cost
 * more than twice one kept (the find-a-doctor page's search: 2.8 ms of CPU against 1.2, mostly
 * planning, bench/README.md). Kept by PostgreSQL, a statement is planned for its values five times,
 * then gets one generic plan if that is no costlier (its plan cache's own rule). Searches by a
 * fragment (LIKE, trigram similarity) are left out: their best plan depends on the fragment
 * (docs/decisions/0018), so they are planned for it at every call, as before.
 */
export const KEPT_STATEMENTS = 200;
/** The longest stretch of statements PGlite runs without letting the event loop turn (see `query`). */
const TURN_EVERY_MS = 10;

const dependsOnItsValues = /\bi?like\b|\bsimilarity\b|%/i;

/** Whether a statement is kept as a named statement without being marked (on both databases). */
function keptUnmarked(text: string, params: readonly unknown[]) {
  return params.length > 0 && !dependsOnItsValues.test(text);
}

/** Marks the text of a statement prepared once (prepared.ts), so the PGlite client names it. */
export function markPrepared(text: string) {
  preparedTexts.add(text);
}

interface Named {
  name: string;
  /** Kept because it was used lately (not marked prepared): it may be closed to make room. */
  evictable: boolean;
  /** The parameters' types, for PGlite's serializers (as its own query does). */
  paramTypes: number[];
  /** The statement's row description: bind and execute alone do not send it. */
  rowDescription?: ReturnType<PGlite["execProtocol"]> extends Promise<{ messages: (infer M)[] }> ? M : never;
}

function concat(parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const serialize = protocol.serialize;

/**
 * The PGlite client drizzle is given: the texts of prepared statements run as named statements,
 * parsed once; everything else (and transactions, and every other method) is PGlite's own.
 */
export function withNamedStatements(client: PGlite): PGlite {
  const named = new Map<string, Named>();
  let made = 0;

  let evictable = 0;

  async function parseOnce(text: string): Promise<Named> {
    const marked = preparedTexts.has(text);
    // Room for one more kept statement: the least recently used one is closed.
    if (!marked && evictable >= KEPT_STATEMENTS) {
      for (const [oldText, old] of named) {
        if (!old.evictable) continue;
        named.delete(oldText);
        evictable--;
        await client.execProtocol(concat([serialize.close({ type: "S", name: old.name }), serialize.sync()]));
        break;
      }
    }
    const name = `prepared_${++made}`;
    const described = await client.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]),
    );
    const statement: Named = {
      name,
      evictable: !marked,
      paramTypes: parse.parseDescribeStatementResults(described.messages),
      rowDescription: described.messages.find((m) => m.name === "rowDescription"),
    };
    named.set(text, statement);
    if (!marked) evictable++;
    return statement;
  }

  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    retried = false,
  ): Promise<Results<T>> {
    let statement = named.get(text);
    if (statement?.evictable) {
      // Most recently used last: the map's order is the eviction order.
      named.delete(text);
      named.set(text, statement);
    }
    statement ??= await parseOnce(text);
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = options?.serializers?.[statement.paramTypes[i]] ?? client.serializers[statement.paramTypes[i]];
      return serializer ? serializer(param) : String(param);
    });
    try {
      const { messages } = await client.execProtocol(
        concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      );
      const rows = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
      // PGlite merges a query's own parsers into a copy of its defaults, about 320 of them (one per
      // array type): 90 µs of copying per statement, for the nine types drizzle keeps as text. A
      // layer over the defaults gives the same parsers without the copy.
      const { parsers, ...rest } = options ?? {};
      const merged = parsers
        ? Object.assign(Object.create(client.parsers) as typeof client.parsers, parsers)
        : client.parsers;
      return parse.parseResults(rows, merged, rest)[0] as Results<T>;
    } catch (error) {
      // A change of the schema that changes what the statement returns ("cached plan must not
      // change result type"): it is parsed again, once.
      if (!retried && (error as { code?: string }).code === "0A000") {
        if (named.delete(text) && statement.evictable) evictable--;
        await client.execProtocol(concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]));
        return run(text, params, options, true);
      }
      throw error;
    }
  }

  // PGlite answers in the same turn of the event loop, and its lock passes to the next statement by
  // a promise: under load, the statements of every page in flight ran one after the other for as long
  // as there were any (seconds at 20 connections), and no request was read, no page rendered (React's
  // work waits for the next turn) and no answer written meanwhile. Every TURN_EVERY_MS of such work
  // the loop is let turn once, so other work gets its share; it costs no CPU (bench/README.md).
  // (Statements inside a transaction run through PGlite's own query, which this does not see.)
  let lastTurn = performance.now();
  async function turnIfDue() {
    if (performance.now() - lastTurn > TURN_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastTurn = performance.now();
    }
  }

  const query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!preparedTexts.has(text) && !keptUnmarked(text, params ?? [])) {
      await turnIfDue();
      return client.query<T>(text, params, options);
    }
    // As PGlite's own query: after any transaction under way, one statement at a time; the lock is
    // held over the turn, so the statement keeps its place.
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        await turnIfDue();
        return run<T>(text, params ?? [], options);
      }),
    );
  };

  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The name of a kept statement on PostgreSQL: its text's digest, so one text has one name on every connection. */
const pgNames = new Map<string, string>();
function pgNameOf(text: string) {
  let name = pgNames.get(text);
  if (!name) {
    name = `kept_${createHash("sha1").update(text).digest("hex")}`;
    // The texts are the app's own and few; a bound all the same.
    if (pgNames.size < 4 * KEPT_STATEMENTS) pgNames.set(text, name);
  }
  return name;
}

/**
 * The same on PostgreSQL: each pooled connection keeps the first KEPT_STATEMENTS texts with values
 * it runs (not a search by fragment) as named statements, parsed and planned by the server as the
 * marked ones are, instead of at every call. Past that number a text runs unnamed, as before:
 * node-postgres has no way to close one.
 */
export function keepPgStatements(pool: pg.Pool) {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const kept = new Set<string>();
    /** Kept statements the server refused after a change of the schema: run unnamed from then on. */
    const stale = new Set<string>();
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const asked = config as { text?: unknown; name?: unknown; values?: unknown; submit?: unknown } | null;
      // drizzle's form (a config and the values), with the pool's callback or as a promise.
      if (
        (callback === undefined || typeof callback === "function") &&
        asked &&
        typeof asked === "object" &&
        typeof asked.text === "string" &&
        !asked.name &&
        typeof asked.submit !== "function"
      ) {
        const params = Array.isArray(values) ? values : asked.values;
        if (Array.isArray(params) && keptUnmarked(asked.text, params)) {
          const name = pgNameOf(asked.text);
          if (!stale.has(name) && (kept.has(name) || kept.size < KEPT_STATEMENTS)) {
            kept.add(name);
            const answer = (query({ ...asked, name }, values) as Promise<unknown>).catch((error: unknown) => {
              // "cached plan must not change result type": another instance changed the schema. The
              // statement is run unnamed, now and from then on; in a transaction (aborted by the
              // failure) the first error is the answer.
              if ((error as { code?: string }).code !== "0A000") throw error;
              stale.add(name);
              return (query(config, values) as Promise<unknown>).catch(() => {
                throw error;
              });
            });
            if (typeof callback !== "function") return answer;
            answer.then(
              (result) => callback(undefined, result),
              (error: unknown) => callback(error),
            );
            return undefined;
          }
        }
      }
      return query(config, values, callback);
    }) as typeof client.query;
  });
}
