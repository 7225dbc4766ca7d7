// What the repository holds is for whoever reads it next: no note to engineers working in parallel
// (docs/HELPERS.md), and no pointer to documents that are not in it. The product's rules are written
// in docs/ in the project's own words, and comments point there or to docs/decisions/.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const tracked = () =>
  execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((file) => file && fs.existsSync(path.join(root, file)));

// The specification and design notes the product was first described in, and the engineers' own
// notes (house habits, stack traps): none of them is in the repository.
const OUTSIDE = /\b(SPEC|DESIGN|STACK|STYLE|HELPERS)(\.md\b|'s\b|\s+section\b)|\bSPEC\b|\bDESIGN\b/;

/** The lines of `text` that name a document outside the repository. */
const citations = (text: string) =>
  text
    .split("\n")
    .map((line, i) => [i + 1, line] as const)
    .filter(([, line]) => OUTSIDE.test(line));

describe("the repository stands on its own", () => {
  it("finds the citations it is meant to find, and not ordinary words", () => {
    expect(
      citations("// The slot start (SPEC's `time`)\n// see DESIGN.md §3\n/** (SPEC section 2) */").map(([n]) => n),
    ).toEqual([1, 2, 3]);
    expect(citations("// a design choice, the spec of RFC 5545, the project's style\nconst DESIGNER = 1;")).toEqual([]);
  });

  it("has no docs/HELPERS.md", () => {
    expect(fs.existsSync(path.join(root, "docs", "HELPERS.md"))).toBe(false);
  });

  it("no tracked text file points to SPEC.md, DESIGN.md or the engineers' own notes", () => {
    const self = path.relative(root, import.meta.filename);
    const offenders = tracked()
      .filter((file) => file !== self && !/\.(png|jpe?g|gif|ico|woff2?|tar|gz|tgz)$/.test(file))
      .flatMap((file) =>
        citations(fs.readFileSync(path.join(root, file), "utf8")).map(([n, line]) => `${file}:${n}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe("module edges the lint does not see", () => {
  // docs/architecture.md: app/components/ holds UI only, and a server module never imports it (a
  // server module would load React components, and a rule kept there would be UI's to change).
  const serverModules = () =>
    tracked().filter(
      (file) => /^app\/.*\.server\.ts$/.test(file) || /^api\/.*\.ts$/.test(file) || /^[^/]+\.ts$/.test(file),
    );
  const components = path.join(root, "app", "components") + path.sep;
  const importsComponents = (file: string) =>
    [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/(?:from\s*|import\()\s*["'](\.[^"']+)["']/g)].some(
      ([, spec]) => path.resolve(path.dirname(path.join(root, file)), spec!).startsWith(components),
    );

  it("no server module imports from app/components/", () => {
    const modules = serverModules();
    expect(modules).toContain("app/routes/health/my-appointments.server.ts");
    expect(modules.filter(importsComponents)).toEqual([]);
  });
});
