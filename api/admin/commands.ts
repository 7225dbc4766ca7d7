// The administration commands of `npm run admin` (api/cli.ts), run either by the CLI on a database
// it opens itself, or inside the process that owns the embedded database when the app runs (the
// CLI then sends them over api/admin/control.ts). Same data functions as the /admin router.
import { parseArgs } from "node:util";
import type { Db } from "../db/index.ts";
import type { Mailer } from "../mail/index.ts";
import { config } from "../../config.ts";
import { addPastAppointments } from "../seed.ts";
import {
  approveDoctor,
  createAdminAccount,
  findDoctorId,
  findPatientId,
  listDoctorsByVerification,
  rejectDoctor,
  specialityIdsByName,
} from "./doctors.ts";

export const USAGE = `Usage: npm run admin -- <command>
  list-pending
  approve <email> [--speciality "Cardiology" ...]
  reject <email> [--reason "..."]
  create-admin <email> <username>   (password from ADMIN_PASSWORD, else read from stdin)
  backup <file>                     copy of the embedded database, also while the app runs
  restore <file>                    replace the embedded database (the app must be stopped)
  demo-history <doctor-email> <patient-email> [--days N | --today]
                                    past confirmed appointments of the pair, or one today at 10:00
                                    (demo databases only)`;

export class UsageError extends Error {}

export interface CommandIo {
  /** One line of the command's answer. */
  out(line: string): void;
  /** create-admin's password, asked only when that command runs. */
  password(): Promise<string>;
}

/** Command name and arguments, or a UsageError. */
export function parseCommand(argv: string[]) {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        speciality: { type: "string", multiple: true },
        reason: { type: "string" },
        days: { type: "string" },
        today: { type: "boolean" },
      },
    });
    const [command, ...rest] = positionals;
    const arg = (i: number, name: string) => {
      if (!rest[i]) throw new UsageError(`Missing ${name}`);
      return rest[i];
    };
    return { command, arg, values };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message);
  }
}

/** Runs one data command; throws UsageError or ApiError (a refusal the operator reads). */
export async function runCommand(db: Db, mailer: Mailer, argv: string[], io: CommandIo) {
  const { command, arg, values } = parseCommand(argv);
  switch (command) {
    case "list-pending": {
      const pending = await listDoctorsByVerification(db, "pending");
      if (pending.length === 0) return io.out("No doctor is awaiting verification.");
      for (const d of pending) {
        io.out([d.email, d.username, d.serial_number, d.contact ?? "-", d.createdAt.slice(0, 10)].join("\t"));
      }
      return;
    }
    case "approve": {
      const doctorId = await findDoctorId(db, arg(0, "<email>"));
      const ids = await specialityIdsByName(db, values.speciality ?? []);
      const d = await approveDoctor(db, mailer, doctorId, ids);
      const names = d.specialities.map((s) => s.name).join(", ") || "no speciality";
      return io.out(`Approved ${d.email} (${names}).`);
    }
    case "reject": {
      const d = await rejectDoctor(db, mailer, await findDoctorId(db, arg(0, "<email>")), values.reason);
      return io.out(`Rejected ${d.email}.`);
    }
    case "create-admin": {
      const email = arg(0, "<email>");
      const username = arg(1, "<username>");
      const user = await createAdminAccount(db, { email, username, password: await io.password() });
      return io.out(`Created admin ${user.email}.`);
    }
    case "demo-history": {
      // Appointments that never happened: only where everything is demo data.
      if (!config().demo) throw new UsageError("demo-history is for demo databases only (DEMO=1)");
      const days = Number(values.days ?? 3);
      if (!Number.isInteger(days) || days < 1 || days > 30)
        throw new UsageError("--days is a whole number from 1 to 30");
      const doctorId = await findDoctorId(db, arg(0, "<doctor-email>"));
      const patientId = await findPatientId(db, arg(1, "<patient-email>"));
      const [generalPractice] = await specialityIdsByName(db, ["General practice"]);
      // --today: the front desk's day (docs/product.md, The front desk) needs an appointment of today
      // at a slot that may be past, which the API never books either.
      const added = await addPastAppointments(db, {
        doctorId,
        patientId,
        specialityId: generalPractice!,
        days: values.today ? 1 : days,
        today: values.today,
      });
      return io.out(
        `Added ${added.length} ${values.today ? "" : "past "}appointments: ${added.map((a) => a.id).join(" ")}`,
      );
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "Missing command");
  }
}
