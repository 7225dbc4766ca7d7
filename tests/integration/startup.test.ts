// `npm start` (node server.ts, the built app and its embedded API) as an operator starts it: on a
// DATA_DIR that does not exist yet (it crashed with an ENOENT stack), and a second time on the
// same folder while the first runs (two processes writing one PGlite folder lose data).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { productionEnv } from "../../bench/support.ts";
import { runProcess as run } from "../../api/test/run-process.ts";
import { ensureBuild, freePort, startWebServer } from "../../app/test/web-server.ts";

const parent = fs.mkdtempSync(path.join(os.tmpdir(), "web-startup-"));
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

describe("npm start", () => {
  it("creates a missing DATA_DIR, holds its database alone, and lets the CLI work through it", async () => {
    const dataDir = path.join(parent, "not", "there", "yet");
    const app = await startWebServer({ env: { DATA_DIR: dataDir } });
    try {
      expect(fs.existsSync(path.join(dataDir, "db"))).toBe(true);
      expect(app.logs().join("\n")).not.toMatch(/ENOENT|\n\s+at /);

      const second = await run(["server.ts"], productionEnv(await freePort(), dataDir));
      expect(second.code).toBe(1);
      expect(second.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining(`in use by process ${app.pid}`)]);

      const listed = await run(["api/cli.ts", "list-pending"], productionEnv(await freePort(), dataDir));
      expect(listed).toMatchObject({ code: 0, stderr: "" });
      expect(listed.stdout).toContain("pending.doctor@example.com");
      expect(app.running()).toBe(true);
    } finally {
      await app.stop();
    }
  }, 600_000);
});

describe("the server build", () => {
  it("imports none of the API's packages: server.ts loads the API once, and hands the web app what it needs (docs/decisions/0019)", async () => {
    await ensureBuild();
    const dir = path.resolve(import.meta.dirname, "../../build/server");
    const imported = new Set<string>();
    for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"))) {
      for (const m of fs.readFileSync(path.join(dir, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^".][^"]*)"/g))
        imported.add(m[1]);
    }
    // The web app's own packages are there (the check reads the build's imports).
    expect(imported).toContain("react-router");
    for (const apiPackage of [
      "prom-client",
      "pino",
      "drizzle-orm",
      "@electric-sql/pglite",
      "pg",
      "nodemailer",
      "@node-rs/argon2",
      "rate-limiter-flexible",
    ]) {
      expect(imported, apiPackage).not.toContain(apiPackage);
    }
  });
});
