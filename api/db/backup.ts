// Backups of the embedded database: PGlite's own dump of its data folder (a gzipped tar), taken in
// the process that owns the folder, and restored into a fresh folder that then replaces the old
// one while no process owns it. PostgreSQL set-ups use pg_dump instead (README, Backups).
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { StartupError } from "../../config.ts";
import { lockDataDir } from "./lock.ts";

/**
 * A consistent copy while the app keeps serving: PGlite runs one statement at a time and the dump
 * waits for its turn, so the files are copied between statements; a transaction still open at that
 * moment has no commit record in the copy and is rolled back when the copy is opened, exactly as
 * after a crash. The checkpoint first writes the committed pages out, so the copy opens quickly.
 */
export async function dumpEmbedded(client: PGlite): Promise<Blob> {
  await client.exec("CHECKPOINT");
  return client.dumpDataDir("gzip");
}

/** Writes a backup file whole or not at all. */
export async function writeBackup(file: string, dump: Blob | Buffer) {
  const draft = `${file}.partial`;
  const bytes = dump instanceof Blob ? Buffer.from(await dump.arrayBuffer()) : dump;
  if (bytes.length === 0) throw new StartupError("The backup is empty: nothing was written");
  fs.writeFileSync(draft, bytes, { mode: 0o600 });
  fs.renameSync(draft, file);
  return bytes.length;
}

/**
 * Replaces the embedded database in `dataDir` by the backup in `file`. Refused (one line) while
 * another process owns the folder. The previous folder is kept beside it, named in the answer.
 */
export async function restoreEmbedded(dataDir: string, file: string): Promise<{ previous?: string }> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new StartupError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
  const release = lockDataDir(dataDir);
  const incoming = `${dataDir}.restoring`;
  try {
    fs.rmSync(incoming, { recursive: true, force: true });
    try {
      const client = await PGlite.create(incoming, {
        loadDataDir: new Blob([new Uint8Array(bytes)]),
        extensions: { pg_trgm, btree_gist },
      });
      await client.query("select 1 from drizzle.__drizzle_migrations limit 1");
      await client.close();
    } catch {
      fs.rmSync(incoming, { recursive: true, force: true });
      throw new StartupError(`${file} is not a backup of this app's embedded database: nothing was changed`);
    }
    let previous: string | undefined;
    if (fs.existsSync(dataDir)) {
      previous = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(dataDir, previous);
    }
    fs.renameSync(incoming, dataDir);
    return { previous: previous && path.basename(previous) };
  } finally {
    release();
  }
}
