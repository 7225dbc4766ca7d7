// The embedded database (a PGlite data folder) has one owner process. PGlite has no locking of its
// own: two processes on one folder each keep their own view and overwrite the other's pages (an
// approval made by the CLI while the app ran was lost, then came back after a restart). The owner
// holds `<folder>.lock`, a file with its pid; a second `npm start` or `npm run api` is refused in
// one line, and the CLI does its work through the owner (see api/admin/control.ts).
//
// A lock whose process is gone (a crash, a kill -9, a container restarted with the same pid) is
// stale and taken over: the file records the owner's start time, so a recycled pid is told apart.
import fs from "node:fs";
import path from "node:path";
import { StartupError } from "../../config.ts";

export interface LockOwner {
  pid: number;
  /** The owner's start time (clock ticks since boot, /proc/<pid>/stat), where the system says. */
  started?: string;
  /** What the owner is, for the refusal message. */
  command: string;
}

/** Lock files this process holds: opening one folder twice in one process is two writers too. */
const held = new Set<string>();

export function lockFileOf(dataDir: string) {
  return `${path.resolve(dataDir)}.lock`;
}

function startTime(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isAlive(owner: LockOwner, file: string): boolean {
  if (owner.pid === process.pid) return held.has(file);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = startTime(owner.pid);
  return !(owner.started && now && now !== owner.started);
}

function readOwner(file: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

/** The live process holding the folder, if any. */
export function lockOwner(dataDir: string): LockOwner | undefined {
  const file = lockFileOf(dataDir);
  const owner = readOwner(file);
  return owner && isAlive(owner, file) ? owner : undefined;
}

function inUseMessage(dataDir: string, owner: LockOwner) {
  return `The embedded database ${dataDir} is in use by process ${owner.pid} (${owner.command}): one process at a time may open it; stop that one first, or use PostgreSQL (DATABASE_URL) for several processes.`;
}

/**
 * Removes a stale lock. Two processes finding the same stale lock must not both remove it (the
 * second would remove the first one's fresh lock): the removal is done under a directory that only
 * one can create, and the lock is checked again inside.
 */
function removeStale(file: string) {
  const guard = `${file}.takeover`;
  try {
    fs.mkdirSync(guard);
  } catch {
    // Another process is taking over; a guard left by a crash mid-takeover expires.
    try {
      if (Date.now() - fs.statSync(guard).mtimeMs > 10_000) fs.rmSync(guard, { recursive: true, force: true });
    } catch {}
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    return;
  }
  try {
    const owner = readOwner(file);
    if (!owner || !isAlive(owner, file)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}

/**
 * Takes the folder for this process, or throws a one-line StartupError naming the owner. Returns
 * the release function (also run at exit).
 */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: LockOwner = {
    pid: process.pid,
    started: startTime(process.pid),
    command: path.basename(process.argv[1] ?? "node"),
  };
  // Written whole to a private file, then linked into place: link fails if the lock exists, and a
  // reader never sees a half-written lock.
  const draft = `${file}.${process.pid}.${Date.now()}`;
  fs.writeFileSync(draft, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 20) throw error;
      }
      const owner = readOwner(file);
      if (owner && isAlive(owner, file)) throw new StartupError(inUseMessage(dataDir, owner));
      removeStale(file);
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  held.add(file);
  const release = () => {
    if (!held.delete(file)) return;
    if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
    process.off("exit", release);
  };
  // A process that exits without closing its database (process.exit in a shutdown timeout) still
  // leaves the folder free; a kill -9 leaves a stale lock, taken over by the next owner.
  process.on("exit", release);
  return release;
}
