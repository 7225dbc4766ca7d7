// The wire's fixed lists are written once, in contract/constants.ts: a copy written by hand
// elsewhere (a role union in a component, a status array in a schema) drifts when the list changes,
// as the consultation types once did between the web app and the API.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as constants from "./constants.ts";

const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "migrations" ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every list of constants.ts of two or more texts, by name. */
const lists = Object.entries(constants as Record<string, unknown>).filter(
  (entry): entry is [string, readonly string[]] => Array.isArray(entry[1]) && entry[1].length > 1 && entry[1].every((v) => typeof v === "string"),
);

/** `values` written out as a literal: an array (["a", "b"]) or a union ("a" | "b"), any spacing and quotes. */
function literal(values: readonly string[]) {
  const quoted = values.map((v) => `["']${v.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}["']`);
  return new RegExp(`\\[\\s*${quoted.join("\\s*,\\s*")}\\s*,?\\s*\\]|${quoted.join("\\s*\\|\\s*")}(?!\\s*\\|)`);
}

describe("the wire's fixed lists", () => {
  it("finds a list written out as an array or as a union, and not a part of it", () => {
    const roles = literal(["patient", "doctor", "admin"]);
    expect(roles.test('type Role = "patient" | "doctor" | "admin";')).toBe(true);
    expect(roles.test("z.enum(['patient', 'doctor', 'admin'])")).toBe(true);
    expect(roles.test('z.enum(["patient", "doctor"])')).toBe(false);
  });

  it("are written nowhere but contract/constants.ts", () => {
    expect(lists.map(([name]) => name)).toContain("ROLES");
    const offenders: string[] = [];
    for (const file of ["app", "api", "contract", "bench", "tools"].flatMap((dir) => sources(path.join(root, dir)))) {
      if (file === path.join(root, "contract", "constants.ts")) continue;
      const text = fs.readFileSync(file, "utf8");
      for (const [name, values] of lists) if (literal(values).test(text)) offenders.push(`${path.relative(root, file)}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });
});
