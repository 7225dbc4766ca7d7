// One process owns the embedded database, as operators meet it: the API started for real on a
// temporary data folder, a second start and the CLI spawned beside it. Two processes writing one
// PGlite folder lost an approval made by the CLI while the app ran.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support.ts";
import { runProcess } from "../test/run-process.ts";
import { openDatabase, type Db } from "./index.ts";
import { lockDataDir, lockFileOf } from "./lock.ts";
import { doctors, users } from "./schema.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lock-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

const envFor = (dataDir: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  DEMO: "1",
  ...extra,
});

/** `npm run api` on `dataDir`, resolved once it listens (or rejected with its output if it exits). */
async function startApi(dataDir: string) {
  const child = spawn(process.execPath, ["api/main.ts"], {
    env: envFor(dataDir, { API_PORT: String(await freePort()) }),
  });
  running.add(child);
  let output = "";
  let errors = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      output += d;
      if (output.includes("API listening")) resolve();
    });
    child.stderr!.on("data", (d) => {
      output += d;
      errors += d;
    });
    child.once("exit", (code) => reject(new Error(`api exited ${code}: ${output}`)));
  });
  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill(signal);
    }).finally(() => running.delete(child));
  return { pid: child.pid!, stop, stderr: () => errors };
}

const run = (args: string[], dataDir: string, extra: Record<string, string> = {}) =>
  runProcess(args, envFor(dataDir, extra));
const admin = (args: string[], dataDir: string, extra: Record<string, string> = {}) =>
  run(["api/cli.ts", ...args], dataDir, extra);

/** The data folder opened in this process (no other process may hold it then). */
async function withDatabase<T>(dataDir: string, work: (db: Db) => Promise<T>) {
  const database = await openDatabase({ dataDir: path.join(dataDir, "db") });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function verificationOf(db: Db, email: string) {
  const [row] = await db
    .select({ verification: doctors.verification })
    .from(doctors)
    .innerJoin(users, eq(users.id, doctors.userId))
    .where(eq(users.email, email));
  return row?.verification;
}

// One app start for the whole scenario: starting PGlite is the expensive part.
describe("the embedded database has one owner, and its backups", () => {
  it("refuses a second start, runs the CLI through the running app, backs up while it runs, and restores after a crash", async () => {
    // A DATA_DIR that does not exist yet, parents included, is created (api/startup.test.ts has the
    // one that cannot be): this start is the API's first on it.
    const dataDir = path.join(scratch, "owner", "not", "there");
    const lock = lockFileOf(path.join(dataDir, "db"));
    const file = path.join(scratch, "backup.tar.gz");
    const app = await startApi(dataDir);
    expect(app.stderr()).toBe("");
    expect(JSON.parse(fs.readFileSync(lock, "utf8")).pid).toBe(app.pid);

    const second = await run(["api/main.ts"], dataDir, { API_PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(second.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining(`in use by process ${app.pid}`)]);

    // Data, then a backup taken while the app runs.
    const created = await admin(["create-admin", "root@example.test", "Root"], dataDir, {
      ADMIN_PASSWORD: "S3cret-pass",
    });
    expect(created).toMatchObject({ code: 0, stderr: "" });
    const backedUp = await admin(["backup", file], dataDir);
    expect(backedUp).toMatchObject({ code: 0, stderr: "" });
    expect(fs.statSync(file).size).toBeGreaterThan(0);

    // A change after the backup, made by the CLI through the running app, which sees it at once.
    const approved = await admin(["approve", "pending.doctor@example.com", "--speciality", "Cardiology"], dataDir);
    expect(approved).toMatchObject({ code: 0, stderr: "" });
    expect(approved.stdout).toContain("Approved pending.doctor@example.com (Cardiology).");
    const refused = await admin(["reject", "pending.doctor@example.com"], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("already verified");

    const restoreWhileRunning = await admin(["restore", file], dataDir);
    expect(restoreWhileRunning.code).toBe(1);
    expect(restoreWhileRunning.stderr.trimEnd().split("\n")).toEqual([
      expect.stringContaining(`in use by process ${app.pid}`),
    ]);

    // A crash leaves the lock behind; its process is gone, so the next owner takes it over. The
    // approval made through the app was not lost.
    await app.stop("SIGKILL");
    expect(fs.existsSync(lock)).toBe(true);
    expect(await withDatabase(dataDir, (db) => verificationOf(db, "pending.doctor@example.com"))).toBe("verified");

    const restored = await admin(["restore", file], dataDir);
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(restored.stdout).toContain("the previous database is kept as db.before-restore-");
    expect(fs.existsSync(lock)).toBe(false);

    // Back to the moment of the backup: the admin made before it, the doctor still pending.
    await withDatabase(dataDir, async (db) => {
      expect(await verificationOf(db, "pending.doctor@example.com")).toBe("pending");
      expect(await db.select({ role: users.role }).from(users).where(eq(users.email, "root@example.test"))).toEqual([
        { role: "admin" },
      ]);
    });

    const notABackup = path.join(scratch, "not-a-backup");
    fs.writeFileSync(notABackup, "hello");
    const bad = await admin(["restore", notABackup], dataDir);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining("is not a backup")]);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith("db.before-restore-"))).toHaveLength(1);
  }, 900_000);

  it("with PostgreSQL, backup points to pg_dump in one line", async () => {
    const result = await admin(["backup", path.join(scratch, "pg.tar.gz")], path.join(scratch, "pg"), {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining("pg_dump")]);
  }, 60_000);
});

describe("lockDataDir", () => {
  it("refuses a second owner within one process, and frees the folder on release", () => {
    const dir = path.join(scratch, "same-process", "db");
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.pid}`);
    release();
    expect(fs.existsSync(lockFileOf(dir))).toBe(false);
    lockDataDir(dir)();
  });

  it("takes over a lock whose process is gone, or whose pid now belongs to another process", async () => {
    const dir = path.join(scratch, "stale", "db");
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.once("exit", resolve));
    fs.writeFileSync(lockFileOf(dir), JSON.stringify({ pid: gone.pid, command: "main.ts" }));
    const release = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lockFileOf(dir), "utf8")).pid).toBe(process.pid);
    release();
    // A container restarted: pid 1 again, but not the process that wrote the lock.
    fs.writeFileSync(lockFileOf(dir), JSON.stringify({ pid: process.ppid, started: "1", command: "server.ts" }));
    lockDataDir(dir)();
    // This very process, not holding it (the previous run of a container with the same pid).
    fs.writeFileSync(lockFileOf(dir), JSON.stringify({ pid: process.pid, command: "server.ts" }));
    lockDataDir(dir)();
  });

  it("does not take over a lock whose process lives", () => {
    const dir = path.join(scratch, "alive", "db");
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(lockFileOf(dir), JSON.stringify({ pid: process.ppid, command: "server.ts" }));
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${process.ppid} (server.ts)`);
  });
});
