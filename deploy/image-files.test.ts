// The image holds every file the server loads: the runtime stage of the Dockerfile copies chosen
// paths, and a module added beside them (server-cluster.ts, contract/) was missing from the image,
// which then died at start with ERR_MODULE_NOT_FOUND while every other test passed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Paths the last stage copies from the build context (not --from=another stage). */
function copiedPaths() {
  const stages = readFileSync(path.join(root, "Dockerfile"), "utf8").split(/^FROM /m);
  const last = stages.at(-1) ?? "";
  return [...last.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) => m[1].trim().split(/\s+/).slice(0, -1));
}

/** Every local module reached from `entry` by static relative imports (tests left out). */
function localModules(entry: string) {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const m of source.matchAll(/(?:import|export)[^"';]*?from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (existsSync(target) && /\.tsx?$/.test(target)) queue.push(target);
    }
  }
  return [...seen].map((f) => path.relative(root, f));
}

it("copies every module the server and the API load at run time", () => {
  const copied = copiedPaths();
  const missing = [
    ...localModules(path.join(root, "server.ts")),
    ...localModules(path.join(root, "api/main.ts")),
    ...localModules(path.join(root, "api/cli.ts")),
  ].filter((file) => !copied.some((c) => file === c || file.startsWith(`${c.replace(/\/$/, "")}/`)));
  expect(copied).toContain("server.ts");
  expect([...new Set(missing)]).toEqual([]);
});
