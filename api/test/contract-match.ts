// The contract tests' one check: a real answer of the API parses with its contract schema and
// comes back unchanged (no field the schema does not know of is dropped, none is coerced).
import { expect } from "vitest";
import type { z } from "zod";

/** The body, typed by its schema once checked. */
export function matches<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.parse(body);
  expect(parsed).toEqual(body);
  return parsed;
}
