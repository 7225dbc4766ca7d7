// Start-up as an operator meets it: every entry point (the web server, the API alone, the CLI)
// spawned with a bad environment answers with one line naming the variable and a non-zero exit,
// never a stack; so does a DATA_DIR that cannot be created (one that does not exist yet is created:
// api/db/lock.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildConfig, readConfig } from "../config.ts";
import { freePort } from "../bench/support.ts";
import { runProcess } from "./test/run-process.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "startup-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs an entry point until it exits, with only `env` set beyond PATH. */
const run = (entry: string[], env: Record<string, string>) =>
  runProcess(entry, { PATH: process.env.PATH, DATA_DIR: path.join(scratch, "data"), ...env });

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
  // Each spawn costs an entry point's start, so the variables the configuration schema checks
  // together share one, which also shows that every bad variable is named on the same line: the
  // line must name each of them (a variable an entry point read raw, outside config.ts, would be
  // missing from it). The session secret and the migrations folder are checked after the schema,
  // so each has a start of its own.
  const cases: [keyof typeof entries, string[], Record<string, string>][] = [
    ["web", ["PORT", "TRUST_PROXY"], { PORT: "eighty", TRUST_PROXY: "yes please" }],
    ["web", ["SESSION_SECRET"], { NODE_ENV: "production", SESSION_SECRET: "", MAIL_TRANSPORT: "outbox" }],
    // A URL carries credentials: named, never echoed.
    [
      "api",
      ["API_PORT", "DB_POOL_SIZE", "APP_TIMEZONE", "DATABASE_URL"],
      {
        API_PORT: "70000",
        DB_POOL_SIZE: "0",
        APP_TIMEZONE: "Mars/Olympus_Mons",
        DATABASE_URL: "mysql://root:hunter2@db/app",
      },
    ],
    ["api", ["MIGRATIONS_DIR"], { MIGRATIONS_DIR: path.join(scratch, "no-migrations") }],
    ["cli", ["SMTP_URL", "DEMO"], { SMTP_URL: "http://mail", DEMO: "yes" }],
  ];
  for (const [entry, variables, env] of cases) {
    it(`${entry}: ${variables.join(", ")}`, async () => {
      const result = await run([...entries[entry]], env);
      for (const variable of variables) expectOneLine(result, variable);
      expect(result.stderr).not.toContain("hunter2");
    }, 120_000);
  }

  it("an unreachable database is one line too", async () => {
    const port = await freePort();
    const result = await run([...entries.api], {
      DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/none`,
      API_PORT: String(await freePort()),
    });
    expectOneLine(result, "DATABASE_URL");
  }, 120_000);
});

describe("DATA_DIR", () => {
  // A missing one is created, parents included, by the API's first start in api/db/lock.test.ts
  // (an API start is the costly part of both), and by the web server's in tests/integration/startup.test.ts.
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
    expect(readConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
      "::1",
    ]);
    expect(readConfig({}).TRUST_PROXY).toEqual(["loopback"]);
    for (const bad of ["10.0.0.0/33", "proxy.example", "1.2.3.4/8/1", "yes"]) {
      expect(() => readConfig({ TRUST_PROXY: bad })).toThrow(/^Configuration error: TRUST_PROXY/);
    }
  });

  it("refuses a port that is not a number", () => {
    expect(() => readConfig({ API_PORT: "x" })).toThrow(/^Configuration error: API_PORT must be a port number/);
  });

  it("reads the patient's booking limits, 2 per doctor and 6 in all unless set, and refuses nonsense", () => {
    expect(readConfig({})).toMatchObject({ BOOKING_LIMIT_PER_DOCTOR: 2, BOOKING_LIMIT_TOTAL: 6 });
    expect(readConfig({ BOOKING_LIMIT_PER_DOCTOR: "3", BOOKING_LIMIT_TOTAL: "10" })).toMatchObject({
      BOOKING_LIMIT_PER_DOCTOR: 3,
      BOOKING_LIMIT_TOTAL: 10,
    });
    for (const bad of ["0", "-1", "2.5", "many", "1001"]) {
      expect(() => readConfig({ BOOKING_LIMIT_TOTAL: bad })).toThrow(
        `Configuration error: BOOKING_LIMIT_TOTAL must be a whole number from 1 to 1000 (got "${bad}")`,
      );
    }
    expect(() => readConfig({ BOOKING_LIMIT_PER_DOCTOR: "7" })).toThrow(
      /^Configuration error: BOOKING_LIMIT_PER_DOCTOR must be at most BOOKING_LIMIT_TOTAL \(got 7 and 6\)/,
    );
  });

  it("gives the documented defaults, an empty variable counting as unset", () => {
    const c = readConfig({ PORT: "", DB_POOL_SIZE: "" });
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      API_PORT: 4000,
      API_HOST: "127.0.0.1",
      DB_POOL_SIZE: 10,
      DATA_DIR: "./data",
      APP_TIMEZONE: "Africa/Douala",
      API_TIMEOUT_MS: 10_000,
      demo: true,
      cookieSecure: false,
    });
    expect(readConfig({ NODE_ENV: "production", MAIL_TRANSPORT: "outbox" })).toMatchObject({
      demo: false,
      cookieSecure: true,
    });
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
  const rootModules = fs
    .readdirSync(".")
    .filter((name) => /\.ts$/.test(name) && name !== "config.ts" && !testRunners.has(name));
  const roots = ["app", "api", "bench", "contract", "tools", ...rootModules];
  const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)test\//.test(file);
  function sources(entry: string): string[] {
    if (!fs.statSync(entry).isDirectory()) return /\.(tsx?|js)$/.test(entry) && !isTestCode(entry) ? [entry] : [];
    return fs.readdirSync(entry).flatMap((name) => sources(path.join(entry, name)));
  }

  it("no module outside config.ts reads process.env", () => {
    const files = roots.flatMap(sources);
    for (const entry of [
      path.join("api", "main.ts"),
      path.join("api", "cli.ts"),
      "server.ts",
      "vite.config.ts",
      path.join("bench", "run.ts"),
      path.join("tools", "link-node.js"),
    ]) {
      expect(files).toContain(entry);
    }
    const readers = files.filter((file) => /\bprocess\.env\b/.test(fs.readFileSync(file, "utf8")));
    expect(readers).toEqual([]);
  });
});
