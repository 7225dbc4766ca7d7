// The production server (`node server.ts`, the built app and its embedded API on a fresh PGlite
// data folder) for tests of the HTTP edge: started on a free port, its log kept for assertions.
//
//   const app = await startWebServer({ env: { API_TIMEOUT_MS: "1000" } });
//   await fetch(`${app.url}/login`); app.logs(); app.rssBytes(); await app.stop();
//
// The build is made when missing or older than a source file, once for all test files at a time.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCookieSessionStorage } from "react-router";
import { freePort, productionEnv } from "../../bench/support.ts";

export { freePort };

const root = path.resolve(import.meta.dirname, "../..");
const built = path.join(root, "build/server/index.js");
const sources = ["app", "locales", "config.ts", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestSource(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) {
    if (name === "+types" || name === "test" || name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestSource(path.join(entry, name)));
  }
  return newest;
}

/** Builds the app unless build/ is newer than every source (another test file may be building). */
export async function ensureBuild() {
  const lock = path.join(os.tmpdir(), `web-build-${Buffer.from(root).toString("hex").slice(-24)}.lock`);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Someone else builds; a lock older than two minutes is the leftover of a killed run.
      if (Date.now() - fs.statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000)
        fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    const newest = Math.max(...sources.map((s) => newestSource(path.join(root, s))));
    const buildTime = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (buildTime < newest)
      execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
        cwd: root,
        stdio: "ignore",
      });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The session secret of the server (bench/support.ts productionEnv). */
const SESSION_SECRET = "b".repeat(40);

/** A signed-in patient's session cookie as the web tier writes it, holding `token` for the API. */
export async function patientSession(token: string, language?: string) {
  const storage = createCookieSessionStorage({
    cookie: { name: "__session", secrets: [SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" },
  });
  const session = await storage.getSession();
  session.set("token", token);
  session.set("user", {
    id: "00000000-0000-4000-8000-000000000001",
    role: "patient",
    username: "Test Patient",
    avatarUrl: null,
  });
  const cookie = (await storage.commitSession(session)).split(";")[0];
  return language ? `${cookie}; i18nextLng=${language}` : cookie;
}

export async function startWebServer(options: { env?: Record<string, string> } = {}) {
  await ensureBuild();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "web-edge-"));
  const lines: string[] = [];
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    // Mail to the data folder, and the request log lines the tests read.
    env: productionEnv(port, dataDir, { SMTP_URL: "", API_URL: "", LOG_LEVEL: "info", ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let partial = "";
  const collect = (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${lines.join("\n")}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${lines.join("\n")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    pid: child.pid!,
    dataDir,
    /** Every line the server logged so far (stdout and stderr). */
    logs: () => [...lines, ...(partial ? [partial] : [])],
    /** Forgets the lines logged so far. */
    clearLogs: () => {
      lines.length = 0;
    },
    /** The server's resident memory now (Linux /proc). */
    rssBytes: () => Number(fs.readFileSync(`/proc/${child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)![1]) * 1024,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type WebServer = Awaited<ReturnType<typeof startWebServer>>;
