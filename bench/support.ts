// What the benchmarks that drive the production server share: starting it (built app, demo data,
// a temporary data folder), a free port, waiting for it to answer, a demo account's session
// through the real login form, and the way figures are printed and written.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { benchConfig, childEnvironment } from "../config.ts";

/** A markdown table for bench/README.md: the first `textColumns` columns left-aligned, figures right. */
export function markdownTable(head: string[], rows: (string | number)[][], textColumns: number) {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const rule = `|${head.map((_, i) => (i < textColumns ? "---" : "---:")).join("|")}|`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}

/** Writes `value` as JSON to the file BENCH_JSON names, if it names one. */
export function writeBenchJson(value: unknown) {
  const file = benchConfig().BENCH_JSON;
  if (file) writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A free TCP port on the loopback interface, chosen by the system. */
export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 1200; i++) {
    // up to 2 minutes: PGlite starts slowly on a busy machine
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Logs a demo account in through the real login form and returns its session cookie. */
export async function login(base: string, email: string, role: "patient" | "doctor" | "receptionist") {
  const body = new URLSearchParams({ email, password: "Demo1234!", role });
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: base, cookie: "cookie_check=1" },
  }); // the login page's test cookie
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("__session="));
  if (!cookie.length) throw new Error(`login as ${email} failed: ${res.status}`);
  return cookie.join("; ");
}

/** The environment of `node server.ts` in production mode with the demo data on `port` and `dataDir`; `env` adds to it. */
export function productionEnv(port: number, dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childEnvironment({
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO: "1",
    SESSION_SECRET: "b".repeat(40),
    COOKIE_SECURE: "false",
    // No mail leaves a benchmark or a test server (production refuses to start without a choice).
    MAIL_TRANSPORT: "outbox",
    // One web process unless a benchmark or test asks for more (production's default is one per core).
    WEB_CONCURRENCY: "1",
    ...env,
  });
}

/**
 * `node server.ts` in production mode with the demo data, on `port` (a free one by default) and a
 * temporary data folder. `env` adds to (or, with "", clears) the environment it inherits.
 */
export async function startProductionApp(options: { port?: number; env?: Record<string, string>; cwd?: string } = {}) {
  const port = options.port || (await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-app-"));
  const app = spawn(process.execPath, ["server.ts"], {
    cwd: options.cwd,
    env: productionEnv(port, dataDir, options.env),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (app.exitCode === null) {
      app.kill("SIGTERM");
      await new Promise((resolve) => app.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    app.once("exit", (code) => reject(new Error(`server exited with ${code}`))),
  );
  try {
    await Promise.race([waitFor(`${base}/healthz`), exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop, pid: app.pid as number };
}
