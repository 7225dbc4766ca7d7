// Folder-level import cycles. Biome's noImportCycles (biome.json) catches cycles between files;
// this catches the coarser kind, where folder A imports from folder B and B from A through
// different files (say api/appointment/x.ts -> api/doctor/y.ts -> api/appointment/z.ts). Such a
// pair cannot be understood, moved or tested apart: shared code belongs in a folder both import.
// Tests are left out: a test may reach into any folder without making the code depend on it.
// Usage: node tools/check-folder-cycles.ts [root]   (exit 1 and the cycles printed when there are any)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, ".."));
const roots = ["app", "api", "contract", "http", "server.ts", "config.ts"];
const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f);
const skipDir = new Set(["node_modules", "build", "test", "migrations"]);

function walk(path: string, out: string[]) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) if (!skipDir.has(name)) walk(join(path, name), out);
  } else if (isSource(path)) out.push(path);
  return out;
}

// Every relative specifier: static imports and re-exports (type-only too: a type import still
// ties the two folders together), and dynamic import().
const specifier =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/gm;

const files = roots.filter((r) => existsSync(join(root, r))).flatMap((r) => walk(join(root, r), []));
const edges = new Map<string, Set<string>>();
const why = new Map<string, string>();
for (const file of files) {
  const from = relative(root, dirname(file));
  for (const m of readFileSync(file, "utf8").matchAll(specifier)) {
    const target = resolve(dirname(file), m[1] ?? m[2]);
    const to = relative(root, dirname(target));
    // A folder using its parents' shared helpers (api/doctor -> api) is the intended shape (the
    // root composes the resources and holds what they share), so edges up the tree are left out.
    if (to === from || to.startsWith("..") || from.startsWith(`${to}/`) || to === "") continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
    const key = `${from} -> ${to}`;
    if (!why.has(key)) why.set(key, `${relative(root, file)} imports ${relative(root, target)}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a cycle.
let index = 0;
const idx = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const cycles: string[][] = [];
function visit(v: string) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
  }
  if (low.get(v) === idx.get(v)) {
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const v of edges.keys()) if (!idx.has(v)) visit(v);

if (cycles.length === 0) {
  console.log(`folder cycles: none among ${edges.size} folders`);
} else {
  for (const component of cycles) {
    console.error(`folder cycle: ${component.join(", ")}`);
    const inside = new Set(component);
    for (const [key, example] of why) {
      const [from, to] = key.split(" -> ");
      if (inside.has(from) && inside.has(to)) console.error(`  ${key}: ${example}`);
    }
  }
  process.exit(1);
}
