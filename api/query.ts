// What the list calls share beyond their queries' fields (those are contract/fields.ts): the paging
// fields of an answer and ILIKE patterns.

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
