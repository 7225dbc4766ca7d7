// The pieces the request schemas are made of, and the one check the API runs at its edge.
//
// A refused field is answered 400 {message, code}: the message is the zod issue's, the code is the
// field's own, given with `coded` (a missing value may have a code of its own: type_required
// against invalid_type). A field without one answers "invalid".
import { z } from "zod";
import type { ErrorCode } from "./errors.ts";

/** "" and null from a query string or form count as absent. */
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

interface FieldCodes {
  code: ErrorCode;
  missingCode?: ErrorCode;
}

/** `schema`, answered with `code` when refused, and with `missingCode` when it was not given at all. */
export function coded<S extends z.ZodType>(schema: S, code: ErrorCode, missingCode?: ErrorCode): S {
  return schema.meta({ code, missingCode } satisfies FieldCodes);
}

// Every id the API puts in a URL or a body is a UUID (api/db/schema.ts).
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one UUID test: path ids that fail it are unknown (404), never a database error. */
export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID_RE.test(v);

/** A UUID, with `message` when it is missing or malformed. */
export const uuid = (message: string) => z.string(message).refine(isUuid, message);

/** A real calendar day as YYYY-MM-DD: 2026-02-31 is refused, not rolled over into March. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

export const calendarDate = (message: string) => z.string(message).refine(isCalendarDate, message);

/** An optional choice among `values` ("" counts as absent). */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(blank, z.enum(values, `Invalid ${label}`).optional());

/** The largest id an integer column holds: a larger one is refused here, not by the database. */
const MAX_ID = 2_147_483_647;

/** An id as given: a number, or a string of digits (from a query string or a form); "" and null are absent. */
const toId = (v: unknown) => {
  const given = blank(v);
  return typeof given === "string" && /^\d{1,16}$/.test(given) ? Number(given) : given;
};

/** An optional positive integer id, from a query string or a body. */
export const optionalId = (label: string) =>
  z.preprocess(
    toId,
    z
      .number(`Invalid ${label}`)
      .int(`Invalid ${label}`)
      .positive(`Invalid ${label}`)
      .max(MAX_ID, `Invalid ${label}`)
      .optional(),
  );

/** A positive integer id, required: `missing` when not given. */
export const requiredId = (label: string, missing: string) =>
  z.preprocess(
    toId,
    z
      .number({ error: (issue) => (issue.input === undefined ? missing : `Invalid ${label}`) })
      .int(`Invalid ${label}`)
      .positive(`Invalid ${label}`)
      .max(MAX_ID, `Invalid ${label}`),
  );

/** An optional trimmed search text, capped so a huge query cannot be sent to the database. */
export const optionalSearch = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().slice(0, 100) || undefined : blank(v)),
  z.string().optional(),
);

/** An optional text, trimmed ("" counts as absent), at most `max` characters. */
export const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : blank(v)),
    z.string(`Invalid ${label}`).max(max, `The ${label} must be at most ${max} characters`).optional(),
  );

/** A profile's text: trimmed, at most `max` characters; "" and null clear the field. */
export const clearableText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || null : v),
    z.string(message).max(max, message).nullable().optional(),
  );

/** A profile's place: a positive id, from a number or a string of digits; "" and null clear the field. */
export const clearableId = (message: string) =>
  z.preprocess(
    (v) => (v === "" ? null : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
    z.number(message).int(message).positive(message).max(MAX_ID, message).nullable().optional(),
  );

/**
 * page (default 1) and limit (default `defaultLimit`, values above `maxLimit` are capped). Anything
 * but one whole number from 1 (0, -1, abc, 1.5, 1e400, a number past 2^53, the field given twice)
 * is refused with a code of its own, invalid_page or invalid_limit, so a client can tell which.
 */
export function pagination(defaultLimit: number, maxLimit: number) {
  return {
    page: coded(
      z.preprocess(
        blank,
        z.coerce.number({ error: "Invalid page" }).int("Invalid page").min(1, "Invalid page").default(1),
      ),
      "invalid_page",
    ),
    limit: coded(
      z.preprocess(
        blank,
        z.coerce
          .number({ error: "Invalid limit" })
          .int("Invalid limit")
          .min(1, "Invalid limit")
          .default(defaultLimit)
          .transform((n) => Math.min(n, maxLimit)),
      ),
      "invalid_limit",
    ),
  };
}

/** The paging fields of every paged list. */
export const pageFields = {
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
};

export type Checked<T> = { ok: true; data: T } | { ok: false; message: string; code: ErrorCode };

/**
 * The edge check of a request body or query: the value, or the first refused field's message and
 * code. A body that is not a JSON object is read as an empty one, so its first required field says
 * what is missing.
 */
export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const value = input && typeof input === "object" && !Array.isArray(input) ? input : {};
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const key = issue?.path[0];
  const shape = (schema as unknown as { shape?: Record<PropertyKey, z.ZodType> }).shape;
  const field = key !== undefined ? shape?.[key] : undefined;
  const codes = field?.meta() as Partial<FieldCodes> | undefined;
  const given = key === undefined ? value : blank((value as Record<PropertyKey, unknown>)[key]);
  const code = (given === undefined ? codes?.missingCode : undefined) ?? codes?.code ?? "invalid";
  return { ok: false, message: issue?.message ?? "Invalid request", code };
}
