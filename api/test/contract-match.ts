// The contract tests' one check: a real answer of the API parses with its contract schema and
// comes back unchanged (no field the schema does not know of is dropped, none is coerced).
import { expect } from "vitest";
import type { z } from "zod";

export const matches = (schema: z.ZodType, body: unknown) => expect(schema.parse(body)).toEqual(body);
