// The production build makes one stylesheet wherever the checkout sits. Tailwind's detection of
// its sources follows the ignore rules of the git repository around the checkout: inside a folder
// that a parent repository ignores (a deploy checkout inside an infrastructure repository), the
// server build and the browser build scanned different files and linked two different stylesheets,
// so every page failed hydration in production (React's error #418). app/app.css declares its
// sources instead; this builds a copy of the checkout in such a folder and looks.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const parent = mkdtempSync(path.join(os.tmpdir(), "css-sources-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

it("builds one stylesheet, the one the server's pages link, inside a folder a parent repository ignores", () => {
  execFileSync("git", ["init", "-q"], { cwd: parent });
  writeFileSync(path.join(parent, ".gitignore"), "deploy/\n");
  const checkout = path.join(parent, "deploy", "app");
  mkdirSync(checkout, { recursive: true });
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0");
  for (const file of files) {
    if (file && existsSync(path.join(root, file)))
      cpSync(path.join(root, file), path.join(checkout, file), { recursive: true });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(checkout, "node_modules"));

  const build = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    cwd: checkout,
    encoding: "utf8",
  });
  expect(build.status, build.stderr).toBe(0);

  const assets = path.join(checkout, "build/client/assets");
  const stylesheets = readdirSync(assets).filter((name) => name.endsWith(".css"));
  // The server build's code, in every file it is split into (the entry imports the rest).
  const server = path.join(checkout, "build/server");
  const code = readdirSync(server, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".js"))
    .map((name) => readFileSync(path.join(server, name), "utf8"))
    .join("\n");
  const linked = code.match(/assets\/[\w-]+\.css/g);
  expect(stylesheets).toHaveLength(1);
  expect(new Set(linked)).toEqual(new Set([`assets/${stylesheets[0]}`]));
}, 300_000);
