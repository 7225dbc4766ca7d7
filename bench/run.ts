// `npm run bench`: every benchmark of docs/architecture.md (Budgets), one after the other, on a fresh
// production build. Each prints its own figures; bench/README.md keeps the latest ones.
//   weight  HTML + CSS and first-load JavaScript of each page (gzip)
//   first-visit  what a phone fetches on a page's first visit, on the wire, by kind (150 KB a page)
//   lighthouse  Lighthouse 12 mobile's paint, blocking and layout shift figures of three pages
//   ssr     requests/s and p99 of the signed-in find-a-doctor page, as a ratio to bare node:http
//   scale   search and list calls on 100,000 doctors / 1,000,000 appointments vs 1,000 / 10,000
// A benchmark that reports a budget missed exits non-zero; the others still run.
import { spawnSync } from "node:child_process";

const only = process.argv.slice(2);
const benches = ["weight", "first-visit", "lighthouse", "ssr", "scale"].filter(
  (name) => only.length === 0 || only.includes(name),
);

const build = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
for (const name of benches) {
  console.log(`\n===== bench/${name}.ts =====`);
  const run = spawnSync(process.execPath, [`bench/${name}.ts`], { stdio: "inherit" });
  if (run.status !== 0) {
    failed++;
    console.log(`bench/${name}.ts exited with ${run.status}`);
  }
}
process.exit(failed ? 1 : 0);
