// Start-up as an operator meets it: every entry point (the web server, the API alone, the CLI)
// spawned with a bad environment answers with one line naming the variable and a non-zero exit,
// never a stack; a DATA_DIR that does not exist yet is created.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildConfig, readConfig } from "../config.ts";
import { freePort } from "../bench/support.ts";
import { runProcess } from "./test/run-process.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "startup-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs an entry point until it exits (or until `until` sees its output), with only `env` set beyond PATH. */
const run = (entry: string[], env: Record<string, string>, until?: (stdout: string) => boolean) =>
  runProcess(entry, { PATH: process.env.PATH, DATA_DIR: path.join(scratch, "data"), ...env }, until);

const entries = {
  web: ["server.ts"],
  api: ["api/main.ts"],
  cli: ["api/cli.ts", "list-pending"],
} as const;

function expectOneLine(result: { code: number | null; stderr: string }, variable: string) {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(variable);
  expect(lines[0]).not.toMatch(/\bat .*:\d+:\d+/);
}

describe("a bad configuration stops every entry point with one line naming the variable", () => {
  const cases: [keyof typeof entries, string, Record<string, string>][] = [
    ["web", "PORT", { PORT: "eighty" }],
    ["web", "TRUST_PROXY", { TRUST_PROXY: "yes please" }],
    ["web", "SESSION_SECRET", { NODE_ENV: "production", SESSION_SECRET: "", MAIL_TRANSPORT: "outbox" }],
    ["api", "API_PORT", { API_PORT: "70000" }],
    ["api", "DB_POOL_SIZE", { DB_POOL_SIZE: "0" }],
    ["api", "APP_TIMEZONE", { APP_TIMEZONE: "Mars/Olympus_Mons" }],
    ["api", "MIGRATIONS_DIR", { MIGRATIONS_DIR: path.join(scratch, "no-migrations") }],
    ["cli", "SMTP_URL", { SMTP_URL: "http://mail" }],
    ["cli", "DEMO", { DEMO: "yes" }],
  ];
  for (const [entry, variable, env] of cases) {
    it(`${entry}: ${variable}`, async () => {
      expectOneLine(await run([...entries[entry]], env), variable);
    }, 120_000);
  }

  it("names every bad variable on the same line, and never echoes a secret", async () => {
    const result = await run([...entries.api], { API_PORT: "x", DATABASE_URL: "mysql://root:hunter2@db/app" });
    expectOneLine(result, "API_PORT");
    expect(result.stderr).toContain("DATABASE_URL");
    expect(result.stderr).not.toContain("hunter2");
  }, 120_000);

  it("an unreachable database is one line too", async () => {
    const port = await freePort();
    const result = await run([...entries.api], { DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/none`, API_PORT: String(await freePort()) });
    expectOneLine(result, "DATABASE_URL");
  }, 120_000);
});

describe("DATA_DIR", () => {
  it("is created when missing, with its parents, and the API starts on it", async () => {
    const dataDir = path.join(scratch, "fresh", "nested", "data");
    const result = await run([...entries.api], { DATA_DIR: dataDir, API_PORT: String(await freePort()), DEMO: "0" }, (out) => out.includes("API listening"));
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("API listening");
    expect(fs.existsSync(path.join(dataDir, "db"))).toBe(true);
  }, 300_000);

  it("that cannot be created is one line naming it", async () => {
    const file = path.join(scratch, "a-file");
    fs.writeFileSync(file, "");
    expectOneLine(await run([...entries.cli], { DATA_DIR: path.join(file, "data") }), "DATA_DIR");
  }, 120_000);
});

describe("readConfig", () => {
  it("reads TRUST_PROXY as Express expects it", () => {
    expect(readConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(readConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(readConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(readConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8", "::1"]);
    expect(readConfig({}).TRUST_PROXY).toEqual(["loopback"]);
    for (const bad of ["10.0.0.0/33", "proxy.example", "1.2.3.4/8/1", "yes"]) {
      expect(() => readConfig({ TRUST_PROXY: bad })).toThrow(/^Configuration error: TRUST_PROXY/);
    }
  });

  it("gives the documented defaults, an empty variable counting as unset", () => {
    const c = readConfig({ PORT: "", DB_POOL_SIZE: "" });
    expect(c).toMatchObject({ PORT: 3000, HOST: "0.0.0.0", API_PORT: 4000, API_HOST: "127.0.0.1", DB_POOL_SIZE: 10, DATA_DIR: "./data", APP_TIMEZONE: "Africa/Douala", API_TIMEOUT_MS: 10_000, demo: true, cookieSecure: false });
    expect(readConfig({ NODE_ENV: "production", MAIL_TRANSPORT: "outbox" })).toMatchObject({ demo: false, cookieSecure: true });
  });
});

describe("buildConfig", () => {
  it("writes the browser build's source maps only when CLIENT_SOURCEMAP is 1, and refuses anything else", () => {
    expect(buildConfig({})).toEqual({ clientSourcemap: false });
    expect(buildConfig({ CLIENT_SOURCEMAP: "" })).toEqual({ clientSourcemap: false });
    expect(buildConfig({ CLIENT_SOURCEMAP: "1" })).toEqual({ clientSourcemap: true });
    expect(() => buildConfig({ CLIENT_SOURCEMAP: "yes" })).toThrow(/^Configuration error: CLIENT_SOURCEMAP/);
  });
});

describe("config.ts is the one reader of the environment", () => {
  // Source of the web app, the API, the contract, the benchmarks, the tools and the root's modules
  // (the web server, its workers, the build's configuration). Tests, their support folders and the
  // test runners' configurations are left out: they set the environment of the processes they start.
  const testRunners = new Set(["playwright.config.ts", "vitest.config.ts"]);
  const rootModules = fs.readdirSync(".").filter((name) => /\.ts$/.test(name) && name !== "config.ts" && !testRunners.has(name));
  const roots = ["app", "api", "bench", "contract", "tools", ...rootModules];
  const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)test\//.test(file);
  function sources(entry: string): string[] {
    if (!fs.statSync(entry).isDirectory()) return /\.(tsx?|js)$/.test(entry) && !isTestCode(entry) ? [entry] : [];
    return fs.readdirSync(entry).flatMap((name) => sources(path.join(entry, name)));
  }

  it("no module outside config.ts reads process.env", () => {
    const files = roots.flatMap(sources);
    for (const entry of [path.join("api", "main.ts"), path.join("api", "cli.ts"), "server.ts", "vite.config.ts", path.join("bench", "run.ts"), path.join("tools", "link-node.js")]) {
      expect(files).toContain(entry);
    }
    const readers = files.filter((file) => /\bprocess\.env\b/.test(fs.readFileSync(file, "utf8")));
    expect(readers).toEqual([]);
  });
});
