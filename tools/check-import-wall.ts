// The wall between the web app and the API (docs/architecture.md): nothing under app/ (its tests
// included) and nothing in config.ts imports from api/, and contract/, what both sides share on the
// wire, imports neither of them (a contract that pulled in one side would bring it to the other).
// server.ts, the composition root, is the one place that holds both and hands the web app its way
// to the API through React Router's load context. An import through the wall put a second copy of
// the API's modules in the server build, with registries on globalThis to paper over it.
// Usage: node tools/check-import-wall.ts [root]   (exit 1 and the imports printed when there are any)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, ".."));
const skipDir = new Set(["node_modules", "build", "+types"]);

function walk(path: string, out: string[]) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) if (!skipDir.has(name)) walk(join(path, name), out);
  } else if (/\.(ts|tsx|js|mjs)$/.test(path)) out.push(path);
  return out;
}

// Every specifier: static imports and re-exports (type-only too), side-effect imports, dynamic
// import(), require() and vi.mock()/vi.importActual() of a path, in quotes or in a template (whose
// static part, up to its first ${...}, is what can be known of the target).
const specifier =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\b(?:import|require|mock|importActual|doMock)\(\s*(?:["']([^"']+)["']|`([^`$]*))/gm;

/** Each guarded place, with the folders it must not import from. */
const walls = [
  { guarded: ["app", "config.ts"], forbidden: ["api"] },
  { guarded: ["contract"], forbidden: ["api", "app"] },
];

const breaches: string[] = [];
let checked = 0;
for (const wall of walls) {
  const files = wall.guarded
    .map((entry) => join(root, entry))
    .filter(existsSync)
    .flatMap((entry) => walk(entry, []));
  checked += files.length;
  const forbidden = wall.forbidden.map((folder) => join(root, folder));
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(specifier)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (!spec?.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (forbidden.some((folder) => target === folder || target.startsWith(`${folder}/`)))
        breaches.push(`${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
}

if (breaches.length === 0) {
  console.log(
    `import wall: no import from api/ in app/ or config.ts, none from api/ or app/ in contract/ (${checked} files)`,
  );
} else {
  for (const breach of breaches) console.error(`import wall: ${breach}`);
  console.error(
    "app/ and config.ts must not import api/, nor contract/ api/ or app/: shared wire types go in contract/, and server.ts hands the web app what it needs (docs/architecture.md)",
  );
  process.exit(1);
}
