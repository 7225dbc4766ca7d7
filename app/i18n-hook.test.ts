// Components translate through app/i18n.ts's useTranslation, not react-i18next's: that one copies
// the whole i18next instance into a wrapper at every component mount, a cost paid on every page
// for nothing here (docs/performance.md). A new file importing it would bring the cost back.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

describe("translations in components", () => {
  it("no module takes useTranslation from react-i18next", () => {
    const offenders = sources("app").filter((file) => /import\s*\{[^}]*\buseTranslation\b[^}]*\}\s*from\s*"react-i18next"/.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
