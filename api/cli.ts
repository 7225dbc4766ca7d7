// Administration from scripts (`npm run admin -- <command>`), on the same database as the API:
//   list-pending                                   doctors awaiting verification
//   approve <email> [--speciality "Cardiology" ...] verify a doctor with these specialities
//   reject <email> [--reason "..."]                refuse a registration
//   create-admin <email> <username>                password from ADMIN_PASSWORD, else stdin
// DATABASE_URL (postgres://…) or embedded PGlite in DATA_DIR/db, SMTP_URL / MAIL_FROM as for the
// API: all from config.ts. It calls the same data functions as the /admin router.
import { parseArgs } from "node:util";
import { config, exitOnStartupError, startupConfig } from "../config.ts";
import { openDatabase, type Database } from "./db/index.ts";
import { seedReferenceData } from "./db/reference.ts";
import { createMailer } from "./mail/index.ts";
import { ApiError } from "./http.ts";
import { approveDoctor, createAdminAccount, findDoctorId, listDoctorsByVerification, rejectDoctor, specialityIdsByName } from "./admin/doctors.ts";

const USAGE = `Usage: npm run admin -- <command>
  list-pending
  approve <email> [--speciality "Cardiology" ...]
  reject <email> [--reason "..."]
  create-admin <email> <username>   (password from ADMIN_PASSWORD, else read from stdin)`;

class UsageError extends Error {}

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

async function run(database: Database, argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { speciality: { type: "string", multiple: true }, reason: { type: "string" } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { positionals, values } = parsed;
  const [command, ...rest] = positionals;
  const { db } = database;
  const { SMTP_URL, MAIL_FROM, outboxDir } = config();
  const mailer = createMailer({ smtpUrl: SMTP_URL, from: MAIL_FROM, outboxDir });
  const arg = (i: number, name: string) => {
    if (!rest[i]) throw new UsageError(`Missing ${name}`);
    return rest[i];
  };

  switch (command) {
    case "list-pending": {
      const pending = await listDoctorsByVerification(db, "pending");
      if (pending.length === 0) return console.log("No doctor is awaiting verification.");
      for (const d of pending) {
        console.log([d.email, d.username, d.serial_number, d.contact ?? "-", d.createdAt.slice(0, 10)].join("\t"));
      }
      return;
    }
    case "approve": {
      const doctorId = await findDoctorId(db, arg(0, "<email>"));
      const ids = await specialityIdsByName(db, values.speciality ?? []);
      const d = await approveDoctor(db, mailer, doctorId, ids);
      const names = d.specialities.map((s) => s.name).join(", ") || "no speciality";
      return console.log(`Approved ${d.email} (${names}).`);
    }
    case "reject": {
      const d = await rejectDoctor(db, mailer, await findDoctorId(db, arg(0, "<email>")), values.reason);
      return console.log(`Rejected ${d.email}.`);
    }
    case "create-admin": {
      const email = arg(0, "<email>");
      const username = arg(1, "<username>");
      const user = await createAdminAccount(db, { email, username, password: await readPassword() });
      return console.log(`Created admin ${user.email}.`);
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "Missing command");
  }
}

async function main() {
  const settings = await exitOnStartupError(startupConfig);
  const database = await exitOnStartupError(() => openDatabase({ databaseUrl: settings.DATABASE_URL, dataDir: settings.pgliteDir }));
  try {
    // Specialities must exist to be assigned, even before the API has ever started.
    await seedReferenceData(database.db);
    await run(database, process.argv.slice(2));
    return 0;
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
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
