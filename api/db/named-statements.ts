// The PGlite side of statements prepared once (api/db/prepared.ts, docs/performance.md): the client
// drizzle is given runs the texts of prepared statements as named statements, parsed once. A module
// of its own because the connection (api/db/index.ts) uses it and prepared.ts uses the connection's
// transaction: together they would import each other.
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";

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
const dependsOnItsValues = /\bi?like\b|\bsimilarity\b|%/i;

/** Whether the PGlite client keeps `text` as a named statement without it being marked. */
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
    const described = await client.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]));
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

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, retried = false): Promise<Results<T>> {
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
      const { messages } = await client.execProtocol(concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]));
      const rows = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
      return parse.parseResults(rows, client.parsers, options)[0] as Results<T>;
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

  const query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!preparedTexts.has(text) && !keptUnmarked(text, params ?? [])) return client.query<T>(text, params, options);
    // As PGlite's own query: after any transaction under way, one statement at a time.
    return client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run<T>(text, params ?? [], options)));
  };

  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
