// Statements prepared once (docs/performance.md, "Statements prepared once"): what every signed-in
// page runs (the token check, the summaries, the doctor's access) is built into SQL by drizzle once,
// with placeholders, instead of at every call, and the database keeps it parsed:
// - on PostgreSQL, drizzle's `.prepare(name)` makes it a named statement of each pooled connection
//   (node-postgres parses it once per connection, then only binds and executes);
// - on PGlite, drizzle sends the text again at every call and PGlite makes six trips into its
//   WebAssembly per statement (parse, describe, bind, describe, execute, sync). The client drizzle
//   is given (`withNamedStatements`) parses a prepared text once as a named statement, then runs each
//   call as one trip: bind, execute, sync.
// Only statements of fixed text are prepared this way, and every value goes in a placeholder: a
// prepared statement holds no user's data, only its shape.
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";
import { currentTransaction, type Db } from "./index.ts";

interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/** The texts of prepared statements: the PGlite client parses these once as named statements. */
const preparedTexts = new Set<string>();

/**
 * A statement built once per database by `build` (with `sql.placeholder(...)` for every value) and
 * run with `values`. Inside a request transaction it is built on the transaction, as any other
 * statement of that request, so it sees the request's own changes and never waits for them.
 */
export function prepared<R, V extends Record<string, unknown>>(name: string, build: (db: Db) => Preparable<R>): (db: Db, values: V) => Promise<R> {
  const byDatabase = new WeakMap<Db, ReturnType<Preparable<R>["prepare"]>>();
  let generation = 0;
  const prepare = (db: Db) => {
    // A new name after a change of the schema: each connection parses it again.
    const statement = build(db).prepare(generation ? `${name}_${generation}` : name);
    const text = (statement as unknown as { getQuery?: () => { sql: string } }).getQuery?.().sql;
    if (text) preparedTexts.add(text);
    byDatabase.set(db, statement);
    return statement;
  };
  return async (db, values) => {
    if (currentTransaction.getStore()) return build(db).prepare(name).execute(values);
    try {
      return await (byDatabase.get(db) ?? prepare(db)).execute(values);
    } catch (error) {
      // The schema changed under a running server (another instance migrated it) in a way that
      // changes what the statement returns: PostgreSQL refuses the old statement ("cached plan
      // must not change result type"). It is prepared again under a new name, once.
      if (!isCode(error, "0A000")) throw error;
      generation++;
      return prepare(db).execute(values);
    }
  };
}

/** True when `error`, or an error it wraps (drizzle wraps the driver's), has this SQLSTATE. */
function isCode(error: unknown, code: string): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

interface Named {
  name: string;
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

  async function parseOnce(text: string): Promise<Named> {
    const name = `prepared_${++made}`;
    const described = await client.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]));
    const statement: Named = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described.messages),
      rowDescription: described.messages.find((m) => m.name === "rowDescription"),
    };
    named.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, retried = false): Promise<Results<T>> {
    const statement = named.get(text) ?? (await parseOnce(text));
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
        named.delete(text);
        await client.execProtocol(concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]));
        return run(text, params, options, true);
      }
      throw error;
    }
  }

  const query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!preparedTexts.has(text)) return client.query<T>(text, params, options);
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
