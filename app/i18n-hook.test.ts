// Components translate through app/i18n.ts's useTranslation (app/translate.ts), not through i18next
// or react-i18next: react-i18next's hook copied the whole i18next instance into a wrapper at every
// component mount (docs/performance.md), and i18next itself would bring 15 KB gzip back into every
// page's first-load JavaScript.
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
  // i18next is 15 KB gzip of every page's first-load JavaScript: the browser's modules take only its
  // types (docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md).
  it("no module the browser loads imports i18next or react-i18next at run time", () => {
    const browser = sources("app").filter((file) => !/\.server\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
    const offenders = browser.filter((file) =>
      /^import\s+(?!type\b)[^;]*from\s*"(i18next|react-i18next)"/m.test(fs.readFileSync(file, "utf8")),
    );
    expect(browser.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });
});
