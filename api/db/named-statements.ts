// The PGlite side of statements prepared once (api/db/prepared.ts, docs/performance.md): the client
// drizzle is given runs the texts of prepared statements as named statements, parsed once. A module
// of its own because the connection (api/db/index.ts) uses it and prepared.ts uses the connection's
// transaction: together they would import each other.
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";

/** The texts of prepared statements: the PGlite client parses these once as named statements. */
const preparedTexts = new Set<string>();

/** Marks the text of a statement prepared once (prepared.ts), so the PGlite client names it. */
export function markPrepared(text: string) {
  preparedTexts.add(text);
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
