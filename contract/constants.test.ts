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
  (entry): entry is [string, readonly string[]] =>
    Array.isArray(entry[1]) && entry[1].length > 1 && entry[1].every((v) => typeof v === "string"),
);

const quotedText = String.raw`(?:"[^"\n]*"|'[^'\n]*')`;
const arrayOfTexts = new RegExp(String.raw`\[\s*${quotedText}(?:\s*,\s*${quotedText})+\s*,?\s*\]`, "g");
const unionOfTexts = new RegExp(String.raw`${quotedText}(?:\s*\|\s*${quotedText})+`, "g");

/** Every list of two or more texts written out in `source`, as an array (["a", "b"]) or a union ("a" | "b"), any spacing and quotes. */
function writtenLists(source: string): string[][] {
  return [...source.matchAll(arrayOfTexts), ...source.matchAll(unionOfTexts)].map((match) =>
    [...match[0].matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((text) => text[1] ?? text[2] ?? ""),
  );
}

/** A copy of `values`: the same texts, in any order (a reordered copy drifts all the same). */
const isCopy = (written: string[], values: readonly string[]) => {
  const set = new Set(written);
  return set.size === new Set(values).size && values.every((value) => set.has(value));
};

/** The lists of constants.ts that `source` writes out again. */
const copiesIn = (source: string) => {
  const written = writtenLists(source);
  return lists.filter(([, values]) => written.some((list) => isCopy(list, values))).map(([name]) => name);
};

describe("the wire's fixed lists", () => {
  it("finds a list written out as an array or as a union, in any order, and not a part of it", () => {
    expect(copiesIn('type Role = "patient" | "doctor" | "admin" | "receptionist";')).toEqual(["ROLES"]);
    expect(copiesIn("z.enum(['patient', 'doctor', 'admin', 'receptionist'])")).toEqual(["ROLES"]);
    expect(copiesIn('const who = ["admin", "receptionist", "patient", "doctor"] as const;')).toEqual(["ROLES"]);
    expect(copiesIn('type Role =\n  | "doctor"\n  | "receptionist"\n  | "admin"\n  | "patient";')).toEqual(["ROLES"]);
    expect(copiesIn('z.enum(["patient", "doctor"])')).toEqual([]);
    expect(copiesIn('z.enum(["patient", "doctor", "admin", "receptionist", "robot"])')).toEqual([]);
  });

  it("are written nowhere but contract/constants.ts", () => {
    expect(lists.map(([name]) => name)).toContain("ROLES");
    const offenders: string[] = [];
    for (const file of ["app", "api", "contract", "bench", "tools"].flatMap((dir) => sources(path.join(root, dir)))) {
      if (file === path.join(root, "contract", "constants.ts")) continue;
      for (const name of copiesIn(fs.readFileSync(file, "utf8")))
        offenders.push(`${path.relative(root, file)}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });
});
