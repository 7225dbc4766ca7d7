// Statements prepared once (docs/performance.md, "Statements prepared once"): what every signed-in
// page runs (the token check, the summaries, the doctor's access) is built into SQL by drizzle once,
// with placeholders, instead of at every call, and the database keeps it parsed:
// - on PostgreSQL, drizzle's `.prepare(name)` makes it a named statement of each pooled connection
//   (node-postgres parses it once per connection, then only binds and executes);
// - on PGlite, drizzle sends the text again at every call and PGlite makes six trips into its
//   WebAssembly per statement (parse, describe, bind, describe, execute, sync). The client drizzle
//   is given (`withNamedStatements`, api/db/named-statements.ts) parses a prepared text once as a named statement, then runs each
//   call as one trip: bind, execute, sync.
// Only statements of fixed text are prepared this way, and every value goes in a placeholder: a
// prepared statement holds no user's data, only its shape.
import { withSqlState } from "../db-errors.ts";
import { currentTransaction, type Db } from "./index.ts";
import { markPrepared } from "./named-statements.ts";

interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * A statement built once per database by `build` (with `sql.placeholder(...)` for every value) and
 * run with `values`. Inside a request transaction it is built on the transaction, as any other
 * statement of that request, so it sees the request's own changes and never waits for them.
 */
export function prepared<R, V extends Record<string, unknown>>(
  name: string,
  build: (db: Db) => Preparable<R>,
): (db: Db, values: V) => Promise<R> {
  const byDatabase = new WeakMap<Db, ReturnType<Preparable<R>["prepare"]>>();
  let generation = 0;
  // A new name after a change of the schema: each connection parses it again.
  const currentName = () => (generation ? `${name}_${generation}` : name);
  const prepare = (db: Db) => {
    const statement = build(db).prepare(currentName());
    const text = (statement as unknown as { getQuery?: () => { sql: string } }).getQuery?.().sql;
    if (text) markPrepared(text);
    byDatabase.set(db, statement);
    return statement;
  };
  return async (db, values) => {
    // (No retry there: a failed statement has aborted the transaction.)
    if (currentTransaction.getStore()) return build(db).prepare(currentName()).execute(values);
    try {
      return await (byDatabase.get(db) ?? prepare(db)).execute(values);
    } catch (error) {
      // The schema changed under a running server (another instance migrated it) in a way that
      // changes what the statement returns: PostgreSQL refuses the old statement ("cached plan
      // must not change result type"). It is prepared again under a new name, once.
      if (!withSqlState(error, "0A000")) throw error;
      generation++;
      return prepare(db).execute(values);
    }
  };
}
