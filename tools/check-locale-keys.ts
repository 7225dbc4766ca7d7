// Translation keys: locales/en and locales/fr hold the same keys, and every key is used by app/ or
// api/ (tests do not count). A key counts as used when the code names it in a string ("ns:key", or
// "key" of the default namespace), when a template names a family of keys (`doctor:type.${t}`,
// `${role}:profile.title`), or, for a namespace the API imports as JSON (calendar texts), when the
// importing module, or a wire list of contract/constants.ts it imports, names its last segment. Plural forms (_one, _other, ...) count as their key.
// Usage: node tools/check-locale-keys.ts [root]   (exit 1 and the keys printed when something is wrong)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { LANGUAGES } from "../contract/constants.ts";

const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, ".."));
const languages = LANGUAGES;
const sourceRoots = ["app", "api"];
const DEFAULT_NS = "common";

// A list (paragraphs read with returnObjects) is one key, like a string.
type Tree = { [key: string]: string | string[] | Tree };
function flatten(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" || Array.isArray(v) ? [prefix + k] : flatten(v, `${prefix}${k}.`),
  );
}

const keysOf = (language: string) => {
  const dir = join(root, "locales", language);
  const keys = new Map<string, string[]>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    keys.set(file.replace(/\.json$/, ""), flatten(JSON.parse(readFileSync(join(dir, file), "utf8"))));
  }
  return keys;
};

const problems: string[] = [];
const byLanguage = new Map(languages.map((l) => [l, keysOf(l)]));
const en = byLanguage.get("en")!;
const full = (map: Map<string, string[]>) => new Set([...map].flatMap(([ns, keys]) => keys.map((k) => `${ns}:${k}`)));
const enKeys = full(en);
for (const language of languages.filter((l) => l !== "en")) {
  const other = full(byLanguage.get(language)!);
  for (const key of enKeys) if (!other.has(key)) problems.push(`missing in ${language}: ${key}`);
  for (const key of other) if (!enKeys.has(key)) problems.push(`only in ${language}: ${key}`);
}

function sources(path: string, out: string[] = []) {
  for (const name of readdirSync(path)) {
    const p = join(path, name);
    if (statSync(p).isDirectory()) {
      if (name !== "test" && name !== "node_modules") sources(p, out);
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}
const files = sourceRoots.flatMap((r) => sources(join(root, r)));
const texts = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

const literals = new Set<string>();
const families: RegExp[] = [];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
for (const text of texts.values()) {
  // Comments first (their apostrophes would pair with quotes), then each kind of string by itself.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) literals.add(m[1]);
  for (const m of code.matchAll(/'((?:[^'\\\n]|\\.)*)'/g)) literals.add(m[1]);
  for (const m of code.matchAll(/`([^`\n]*\$\{[^`\n]*)`/g)) {
    // Each ${...} stands for any text; the template must still name a key path around it.
    // Only templates whose fixed text could be part of a key path, with a word in it (not `${a}:${b}`).
    const fixed = m[1].split(/\$\{[^}]*\}/);
    if (!fixed.every((part) => /^[\w.:-]*$/.test(part)) || !fixed.some((part) => /[a-zA-Z]{2}/.test(part))) continue;
    families.push(new RegExp(`^(?:[a-z]+:)?${fixed.map(escapeRegExp).join(".*")}$`));
  }
}

// Namespaces read as JSON by a module (import ... from "locales/en/NS.json"): that module's words,
// and those of the wire's lists it imports (contract/constants.ts), by whose values it reads the
// texts (`t.type[appointment.type]`).
const wireListsFile = join(root, "contract", "constants.ts");
const wireLists = existsSync(wireListsFile) ? readFileSync(wireListsFile, "utf8") : "";
const jsonReaders = new Map<string, string>();
for (const text of texts.values()) {
  const words = /contract\/constants\.ts/.test(text) ? text + wireLists : text;
  for (const m of text.matchAll(/locales\/en\/([a-z]+)\.json/g))
    jsonReaders.set(m[1], (jsonReaders.get(m[1]) ?? "") + words);
}

const plural = /_(zero|one|two|few|many|other)$/;
const unused: string[] = [];
for (const [ns, keys] of en) {
  for (const raw of keys) {
    const key = raw.replace(plural, "");
    const name = `${ns}:${key}`;
    const used =
      literals.has(name) ||
      (ns === DEFAULT_NS && literals.has(key)) ||
      families.some((re) => re.test(name) || (ns === DEFAULT_NS && re.test(key))) ||
      (jsonReaders.has(ns) && new RegExp(`\\b${escapeRegExp(key.split(".").at(-1)!)}\\b`).test(jsonReaders.get(ns)!));
    if (!used) unused.push(`${ns}:${raw}`);
  }
}
for (const key of unused) problems.push(`unused: ${key} (locales/en/${key.split(":")[0]}.json)`);

if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(
    `${problems.length} translation key problem(s); scanned ${files.length} files of ${sourceRoots.join(", ")}`,
  );
  process.exit(1);
}
console.log(`translation keys: ${enKeys.size} in ${languages.join(" and ")}, the same in each, all used`);
