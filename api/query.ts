// Request-parameter pieces shared by the resources: UUID path ids, and the list calls' optional ids,
// pagination and ILIKE patterns.
import { z } from "zod";
import { appointmentStatusEnum } from "./db/schema.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID path id (every id exposed in a URL is one): anything else is answered 404 by the caller. */
export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID_RE.test(v);

/** "" and null from a query string or form count as absent. */
export const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

/** An optional choice among `values` ("" counts as absent). */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(blank, z.enum(values, `Invalid ${label}`).optional());

/** The appointment lists' status filter. */
export const statusFilter = optionalChoice(appointmentStatusEnum.enumValues, "status");

/** An optional positive integer id from a query string ("" counts as absent). */
export const optionalId = (label: string) =>
  z.preprocess(blank, z.coerce.number({ error: `Invalid ${label}` }).int(`Invalid ${label}`).positive(`Invalid ${label}`).optional());

/** An optional trimmed search text, capped so a huge query cannot be sent to the database. */
export const optionalSearch = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().slice(0, 100) || undefined : blank(v)),
  z.string().optional(),
);

/** page (default 1) and limit (default `defaultLimit`, values above `maxLimit` are capped). */
export function pagination(defaultLimit: number, maxLimit: number) {
  return {
    page: z.preprocess(blank, z.coerce.number({ error: "Invalid page" }).int("Invalid page").min(1, "Invalid page").default(1)),
    limit: z.preprocess(
      blank,
      z.coerce
        .number({ error: "Invalid limit" })
        .int("Invalid limit")
        .min(1, "Invalid limit")
        .default(defaultLimit)
        .transform((n) => Math.min(n, maxLimit)),
    ),
  };
}

/** The paging fields of the paged list (docs/product.md, Data). */
export const pageInfo = (total: number, page: number, limit: number) => ({
  total,
  page,
  limit,
  totalPages: Math.ceil(total / limit),
});

/** A case-insensitive "contains" pattern with LIKE wildcards escaped. */
export const containsPattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
