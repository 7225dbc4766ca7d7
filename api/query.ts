// What the list calls share beyond their queries' fields (those are contract/fields.ts): the paging
// fields of an answer, ILIKE patterns and lists of ids.
import { sql, type SQLWrapper } from "drizzle-orm";

/** The paging fields of the paged list (docs/product.md, Data). */
export const pageInfo = (total: number, page: number, limit: number) => ({
  total,
  page,
  limit,
  totalPages: Math.ceil(total / limit),
});

/** A case-insensitive "contains" pattern with LIKE wildcards escaped. */
export const containsPattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The rows of `db.execute`, whose answer's type differs between the two drivers (both have `rows`). */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * `column` is one of `ids` (UUIDs the database gave), the list sent as one array parameter: the
 * thousands of appointments of a closed day would otherwise be thousands of parameters, and
 * PostgreSQL takes at most 65,535 a statement.
 */
export const inIds = (column: SQLWrapper, ids: readonly string[]) =>
  sql`${column} = any(${`{${ids.join(",")}}`}::uuid[])`;
