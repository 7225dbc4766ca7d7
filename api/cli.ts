// Administration from scripts (`npm run admin -- <command>`), on the same database as the API:
//   list-pending                                   doctors awaiting verification
//   approve <email> [--speciality "Cardiology" ...] verify a doctor with these specialities
//   reject <email> [--reason "..."]                refuse a registration
//   create-admin <email> <username>                password from ADMIN_PASSWORD, else stdin
//   backup <file> / restore <file>                 the embedded database (PostgreSQL: pg_dump)
// Configuration (DATABASE_URL, DATA_DIR, SMTP_URL...) from config.ts.
//
// The embedded database has one owner process (api/db/lock.ts). When the app runs, it owns the
// folder and this CLI sends its command to it (api/admin/control.ts) instead of opening the folder
// a second time; restore needs the app stopped.
import fs from "node:fs";
import { config, exitOnStartupError, StartupError, startupConfig } from "../config.ts";
import { openDatabase } from "./db/index.ts";
import { seedReferenceData } from "./db/reference.ts";
import { dumpEmbedded, restoreEmbedded, writeBackup } from "./db/backup.ts";
import { lockOwner } from "./db/lock.ts";
import { createMailer } from "./mail/index.ts";
import { ApiError } from "./http.ts";
import { parseCommand, runCommand, UsageError, USAGE } from "./admin/commands.ts";
import { askOwner, type CommandAnswer } from "./admin/control.ts";

/** The password, never echoed: ADMIN_PASSWORD, else typed at a hidden prompt, else piped on stdin. */
async function readPassword(): Promise<string> {
  const given = config().ADMIN_PASSWORD;
  if (given) return given;
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = "";
    for await (const chunk of stdin) text += chunk;
    return text.replace(/\r?\n$/, "");
  }
  process.stderr.write("Password: ");
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    let typed = "";
    const onData = (key: string) => {
      for (const ch of key) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          process.stderr.write("\n");
          return resolve(typed);
        }
        if (ch === "\u0003") return reject(new UsageError("Cancelled"));
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    };
    stdin.on("data", onData);
    stdin.resume();
  });
}

/** Backup and restore: files, not data commands. */
async function fileCommand(command: "backup" | "restore", file: string): Promise<number> {
  const settings = config();
  if (settings.DATABASE_URL) {
    throw new StartupError(
      `${command} is for the embedded database; with DATABASE_URL use pg_dump and pg_restore (README, Backups)`,
    );
  }
  const dataDir = settings.pgliteDir;
  if (command === "restore") {
    if (!fs.existsSync(file)) throw new StartupError(`No backup at ${file}`);
    const { previous } = await restoreEmbedded(dataDir, file);
    console.log(
      `Restored ${file} into ${dataDir}${previous ? ` (the previous database is kept as ${previous})` : ""}.`,
    );
    return 0;
  }
  let size: number;
  if (lockOwner(dataDir)) {
    const answer = await askOwner(dataDir, "GET", "/backup");
    if (answer?.status !== 200) throw new StartupError(ownerUnreachable(dataDir));
    size = await writeBackup(file, answer.body);
  } else {
    const database = await openDatabase({ dataDir });
    try {
      size = await writeBackup(file, await dumpEmbedded(database.pglite!));
    } finally {
      await database.close();
    }
  }
  console.log(`Backed up ${dataDir} to ${file} (${Math.ceil(size / 1024)} KB).`);
  return 0;
}

function ownerUnreachable(dataDir: string) {
  const owner = lockOwner(dataDir);
  return `The embedded database ${dataDir} is in use by process ${owner?.pid ?? "?"}, which does not take administration commands (another admin command, or an app still starting): try again when it is done.`;
}

/** A data command run by the process that owns the embedded database. */
async function forward(argv: string[]): Promise<number> {
  const { command } = parseCommand(argv);
  const password = command === "create-admin" ? await readPassword() : undefined;
  const dataDir = config().pgliteDir;
  const reply = await askOwner(dataDir, "POST", "/run", { argv, password });
  if (!reply) throw new StartupError(ownerUnreachable(dataDir));
  const answer = JSON.parse(reply.body.toString("utf8")) as CommandAnswer;
  for (const line of answer.out) console.log(line);
  if (answer.error) console.error(answer.error);
  return answer.code;
}

async function main() {
  const settings = await exitOnStartupError(startupConfig);
  const argv = process.argv.slice(2);
  try {
    const { command, arg } = parseCommand(argv);
    if (command === "backup" || command === "restore") return await fileCommand(command, arg(0, "<file>"));
    if (!settings.DATABASE_URL && lockOwner(settings.pgliteDir)) return await forward(argv);
    const database = await openDatabase({ databaseUrl: settings.DATABASE_URL, dataDir: settings.pgliteDir });
    try {
      // Specialities must exist to be assigned, even before the API has ever started.
      await seedReferenceData(database.db);
      const mailer = createMailer({
        smtpUrl: settings.SMTP_URL,
        from: settings.MAIL_FROM,
        outboxDir: settings.outboxDir,
      });
      await runCommand(database.db, mailer, argv, { out: (line) => console.log(line), password: readPassword });
      return 0;
    } finally {
      await database.close();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ApiError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await exitOnStartupError(main);
