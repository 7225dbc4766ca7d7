// The checks of npm test written here (docs/architecture.md, ADR 0014) fail on what they are
// for: run on small trees made for each case, as npm test runs them on the project.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const here = import.meta.dirname;
const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), "checks-"));
  trees.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}
const run = (script: string, root: string) => {
  const r = spawnSync(process.execPath, [path.join(here, script), root], { encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
};

describe("tools/check-folder-cycles.ts", () => {
  it("refuses two folders that import each other, naming the files, and accepts imports up the tree", () => {
    const cycle = tree({
      "api/appointment/booking.ts": 'import { fee } from "../doctor/fee.ts";\nexport const book = () => fee;\n',
      "api/doctor/fee.ts": "export const fee = 1;\n",
      "api/doctor/list.ts": 'import type { book } from "../appointment/booking.ts";\nexport type B = typeof book;\n',
    });
    const refused = run("check-folder-cycles.ts", cycle);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("folder cycle: api/appointment, api/doctor");
    expect(refused.output).toContain("api/doctor/list.ts imports api/appointment/booking.ts");

    const upward = tree({
      "api/app.ts": 'import { router } from "./doctor/router.ts";\nexport const app = router;\n',
      "api/http.ts": "export const parse = 1;\n",
      "api/doctor/router.ts": 'import { parse } from "../http.ts";\nexport const router = parse;\n',
    });
    expect(run("check-folder-cycles.ts", upward)).toMatchObject({ status: 0 });
  });
});

describe("tools/check-locale-keys.ts", () => {
  const locales = (en: object, fr: object) => ({
    "locales/en/common.json": JSON.stringify(en),
    "locales/fr/common.json": JSON.stringify(fr),
  });

  it("accepts keys named in strings, in templates and as plurals, the same in both languages", () => {
    const root = tree({
      ...locales(
        { close: "Close", status: { pending: "Pending" }, items_one: "1 item", items_other: "{{count}} items" },
        {
          close: "Fermer",
          status: { pending: "En attente" },
          items_one: "1 élément",
          items_other: "{{count}} éléments",
        },
      ),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template, as a route would hold it
      "app/page.tsx": 'const a = t("common:close");\nconst b = t(`status.${s}`);\nconst c = t("items", { count });\n',
      "api/.keep.ts": "",
    });
    expect(run("check-locale-keys.ts", root)).toMatchObject({ status: 0 });
  });

  it("counts a JSON namespace's keys named by the wire lists its reader imports, and only then", () => {
    const files = (imports: string) => ({
      "locales/en/calendar.json": JSON.stringify({ type: { online: "Online", "in-person": "In person" } }),
      "locales/fr/calendar.json": JSON.stringify({ type: { online: "En ligne", "in-person": "Au cabinet" } }),
      "contract/constants.ts": 'export const APPOINTMENT_TYPES = ["online", "in-person"] as const;\n',
      "api/ics.ts": `import en from "../locales/en/calendar.json";\n${imports}export const say = (type: string) => en.type[type];\n`,
      "app/.keep.ts": "",
    });
    expect(
      run("check-locale-keys.ts", tree(files('import type { AppointmentType } from "../contract/constants.ts";\n'))),
    ).toMatchObject({ status: 0 });
    const refused = run("check-locale-keys.ts", tree(files("")));
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("unused: calendar:type.in-person");
  });

  it("refuses a key no code uses, and a key missing in French", () => {
    const root = tree({
      ...locales({ close: "Close", coming: "Coming soon" }, { close: "Fermer" }),
      // A comment's apostrophe does not hide the string after it; tests do not count as use.
      "app/page.tsx": '// the page\'s button\nconst a = t("common:close");\n',
      "app/page.test.tsx": 'expect(t("common:coming")).toBe("x");\n',
      "api/.keep.ts": "",
    });
    const refused = run("check-locale-keys.ts", root);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("missing in fr: common:coming");
    expect(refused.output).toContain("unused: common:coming");
    expect(refused.output).not.toContain("common:close");
  });
});

describe("tools/check-import-wall.ts", () => {
  it("refuses an import from api/ in app/ or config.ts, of any kind, tests included", () => {
    const breached = tree({
      "api/in-process.ts": "export const call = 1;\n",
      "api/metrics.ts": "export type M = 1;\n",
      "app/upstream.server.ts": 'import { call } from "../api/in-process.ts";\nexport const c = call;\n',
      "app/routes/page.tsx": 'import type { M } from "../../api/metrics.ts";\nexport type P = M;\n',
      "app/page.test.ts": 'const m = await import("../api/metrics.ts");\n',
      "config.ts": 'export { call } from "./api/in-process.ts";\n',
    });
    const refused = run("check-import-wall.ts", breached);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("app/upstream.server.ts imports api/in-process.ts");
    expect(refused.output).toContain("app/routes/page.tsx imports api/metrics.ts");
    expect(refused.output).toContain("app/page.test.ts imports api/metrics.ts");
    expect(refused.output).toContain("config.ts imports api/in-process.ts");
  });

  it("refuses require() and template import() through the wall, and contract/ importing api/ or app/", () => {
    const breached = tree({
      "api/metrics.ts": "export type M = 1;\n",
      "api/sms/texts.ts": "export const T = 1;\n",
      "app/i18n.ts": "export const t = 1;\n",
      "app/required.server.ts": 'const { M } = require("../api/metrics.ts");\nexport const r = M;\n',
      "app/template.ts": "export const load = () => import(`../api/metrics.ts`);\n",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template, as a module would hold it
      "app/routes/by-name.ts": "export const load = (name: string) => import(`../../api/sms/${name}.ts`);\n",
      "contract/errors.ts": 'import { T } from "../api/sms/texts.ts";\nexport const E = T;\n',
      "contract/texts.ts": 'import { t } from "../app/i18n.ts";\nexport const X = t;\n',
    });
    const refused = run("check-import-wall.ts", breached);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("app/required.server.ts imports api/metrics.ts");
    expect(refused.output).toContain("app/template.ts imports api/metrics.ts");
    expect(refused.output).toContain("app/routes/by-name.ts imports api/sms");
    expect(refused.output).toContain("contract/errors.ts imports api/sms/texts.ts");
    expect(refused.output).toContain("contract/texts.ts imports app/i18n.ts");
  });

  it("accepts contract/, the root's modules and packages, and api/ importing app's neighbours", () => {
    const clean = tree({
      "contract/api-transport.ts": "export const H = 1;\n",
      "app/upstream.server.ts":
        'import { H } from "../contract/api-transport.ts";\nimport { z } from "zod";\nimport { config } from "../config.ts";\nexport const x = [H, z, config];\n',
      "config.ts": 'import { z } from "zod";\nexport const config = z;\n',
      "api/app.ts":
        'import { H } from "../contract/api-transport.ts";\nimport { config } from "../config.ts";\nexport const a = [H, config];\n',
      "server.ts": 'import { a } from "./api/app.ts";\nexport const s = a;\n',
    });
    expect(run("check-import-wall.ts", clean)).toMatchObject({ status: 0 });
  });

  it("holds in this repository", () => {
    const result = run("check-import-wall.ts", path.resolve(here, ".."));
    expect(result.output).toContain("import wall: no import from api/");
    expect(result.status).toBe(0);
  });
});
