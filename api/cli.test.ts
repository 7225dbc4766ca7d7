// `npm run admin` (api/cli.ts). The commands' answers are checked in-process, through runCommand
// (api/admin/commands.ts: the function the CLI and the running app both call), on a copy of the
// test template. The CLI itself is spawned once for each outcome an operator meets: a success
// (its answer on stdout, nothing on stderr, the password never printed), a refusal (exit 1), bad
// usage (exit 2), and mail written to the outbox folder of DATA_DIR. Each spawn opens the embedded
// database (about 2 CPU-seconds), so a case that only the command's code decides is not spawned.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "../config.ts";
import { runCommand, UsageError } from "./admin/commands.ts";
import type { Db } from "./db/index.ts";
import { appointments, doctorSpecialities, doctors, patients, specialities, users } from "./db/schema.ts";
import { verifyPassword } from "./auth/password.ts";
import { ApiError } from "./http.ts";
import { memoryMailer } from "./mail/index.ts";
import { migratedDataDir, setUpApi } from "./test/harness.ts";
import { openScratchDatabase } from "./test/scratch-database.ts";

const exec = promisify(execFile);

/** A pending doctor's registration, as the register route leaves it. */
async function addPendingDoctor(db: Db, email: string, serialNumber: string) {
  const [user] = await db.insert(users).values({ email, username: "Dr Pending", passwordHash: "x", role: "doctor", otpVerified: true }).returning();
  await db.insert(doctors).values({ userId: user.id, serialNumber, verification: "pending" });
  return user.id;
}

async function addPatient(db: Db, email: string) {
  const [user] = await db.insert(users).values({ email, username: "History Patient", passwordHash: "x", role: "patient", otpVerified: true }).returning();
  await db.insert(patients).values({ userId: user.id });
  return user.id;
}

async function specialityNames(db: Db, doctorId: string) {
  const names = await db
    .select({ name: specialities.name })
    .from(doctorSpecialities)
    .innerJoin(specialities, eq(specialities.id, doctorSpecialities.specialityId))
    .where(eq(doctorSpecialities.doctorId, doctorId));
  return names.map((n) => n.name).sort();
}

describe("npm run admin, spawned as an operator runs it", () => {
  let dataDir: string;
  const doctorEmail = "Dr.Pending@Example.test";

  // The CLI's data folder starts as a copy of the migrated template, as the folder of an app that
  // has run, with a pending doctor in it.
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cli-test-"));
    await migratedDataDir(dataDir, (db) => addPendingDoctor(db, doctorEmail, "ORD-777"));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  async function cli(args: string[], env: Record<string, string> = {}) {
    const { DATABASE_URL: _ignored, TEST_DATABASE_URL: _alsoIgnored, ...rest } = process.env;
    try {
      const { stdout, stderr } = await exec(process.execPath, ["api/cli.ts", ...args], {
        env: { ...rest, DATA_DIR: dataDir, SMTP_URL: "", ...env },
        cwd: process.cwd(),
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it("creates an admin, approves a doctor and mails them to the outbox, refuses (exit 1) and explains its usage (exit 2)", async () => {
    const created = await cli(["create-admin", "root@example.test", "Root Admin"], { ADMIN_PASSWORD: "S3cret-pass" });
    expect(created).toMatchObject({ code: 0, stderr: "" });
    expect(created.stdout).toContain("Created admin root@example.test");
    expect(created.stdout + created.stderr).not.toContain("S3cret-pass");

    const approved = await cli(["approve", doctorEmail.toLowerCase(), "--speciality", "Cardiology", "--speciality", "Pédiatrie"]);
    expect(approved).toMatchObject({ code: 0, stderr: "" });
    expect(approved.stdout).toContain("Approved");
    const outbox = await fs.readdir(path.join(dataDir, "outbox"));
    expect(outbox.some((f) => f.includes(doctorEmail.replace(/[^a-z0-9@.]/gi, "_")))).toBe(true);

    const again = await cli(["reject", doctorEmail]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("already verified");

    const usage = await cli(["frobnicate"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run admin");

    // What the spawned commands wrote, read once the CLI is done with the folder.
    const database = await openScratchDatabase({ dataDir: path.join(dataDir, "db"), prefix: "cli" });
    try {
      const { db } = database;
      const [admin] = await db.select().from(users).where(eq(users.email, "root@example.test"));
      expect(admin.role).toBe("admin");
      expect(await verifyPassword(admin.passwordHash, "S3cret-pass")).toBe(true);
      const [doctor] = await db.select().from(users).where(eq(users.email, doctorEmail));
      const [row] = await db.select().from(doctors).where(eq(doctors.userId, doctor.id));
      expect({ verification: row.verification, names: await specialityNames(db, doctor.id) }).toEqual({ verification: "verified", names: ["Cardiology", "Pediatrics"] });
    } finally {
      await database.close();
    }
  }, 300_000);
});

describe("the admin commands (runCommand, what the CLI runs)", () => {
  const api = setUpApi();
  const mailer = memoryMailer();

  /** The command's lines, or the error it throws. */
  async function run(argv: string[], password = "S3cret-pass") {
    const lines: string[] = [];
    await runCommand(api.db, mailer, argv, { out: (line) => lines.push(line), password: async () => password });
    return lines;
  }

  it("create-admin stores the password's hash and refuses an address already taken", async () => {
    expect(await run(["create-admin", "root@example.test", "Root Admin"])).toEqual(["Created admin root@example.test."]);
    const [row] = await api.db.select().from(users).where(eq(users.email, "root@example.test"));
    expect(row.role).toBe("admin");
    expect(await verifyPassword(row.passwordHash, "S3cret-pass")).toBe(true);
    await expect(run(["create-admin", "root@example.test", "Again"])).rejects.toBeInstanceOf(ApiError);
  });

  it("lists pending doctors, approves one by e-mail with specialities in either language, and mails them", async () => {
    const doctorEmail = "Dr.Listed@Example.test";
    const doctorId = await addPendingDoctor(api.db, doctorEmail, "ORD-778");
    const listed = await run(["list-pending"]);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(doctorEmail);
    expect(listed[0]).toContain("ORD-778");

    expect(await run(["approve", doctorEmail.toLowerCase(), "--speciality", "Cardiology", "--speciality", "Pédiatrie"])).toEqual([
      `Approved ${doctorEmail} (Cardiology, Pediatrics).`,
    ]);
    const [doctor] = await api.db.select().from(doctors).where(eq(doctors.userId, doctorId));
    expect(doctor.verification).toBe("verified");
    expect(await specialityNames(api.db, doctorId)).toEqual(["Cardiology", "Pediatrics"]);
    expect(mailer.messages.filter((m) => m.to === doctorEmail)).toHaveLength(1);
    expect(await run(["list-pending"])).toEqual(["No doctor is awaiting verification."]);

    // Already decided, unknown doctor: refusals (the CLI's exit 1); an unknown command: usage (exit 2).
    await expect(run(["reject", doctorEmail])).rejects.toThrow(/already verified/);
    await expect(run(["reject", doctorEmail])).rejects.toBeInstanceOf(ApiError);
    await expect(run(["approve", "nobody@example.test"])).rejects.toThrow("Doctor not found");
    await expect(run(["approve", "nobody@example.test"])).rejects.toBeInstanceOf(ApiError);
    await expect(run(["frobnicate"])).rejects.toBeInstanceOf(UsageError);
  });

  describe("demo-history", () => {
    const demo = process.env.DEMO;
    /** DEMO as the CLI would read it from its environment. */
    const withDemo = (value: string) => {
      process.env.DEMO = value;
      resetConfigForTests();
    };
    afterAll(() => {
      if (demo === undefined) delete process.env.DEMO;
      else process.env.DEMO = demo;
      resetConfigForTests();
    });

    it("gives a doctor and a patient past confirmed appointments, on a demo database only", async () => {
      const doctorEmail = "history.doctor@example.test";
      const patientEmail = "history.patient@example.test";
      const doctor = await api.createDoctor();
      await api.db.update(users).set({ email: doctorEmail }).where(eq(users.id, doctor.user.id));
      const patientId = await addPatient(api.db, patientEmail);
      const history = () => api.db.select().from(appointments).where(eq(appointments.patientId, patientId));

      withDemo("0");
      await expect(run(["demo-history", doctorEmail, patientEmail])).rejects.toThrow(new UsageError("demo-history is for demo databases only (DEMO=1)"));
      expect(await history()).toEqual([]);
      withDemo("1");
      await expect(run(["demo-history", doctorEmail, "nobody@example.test"])).rejects.toThrow("Patient not found");
      await expect(run(["demo-history", doctorEmail, patientEmail, "--days", "99"])).rejects.toBeInstanceOf(UsageError);

      const added = await run(["demo-history", doctorEmail, patientEmail, "--days", "2"]);
      const rows = await history();
      expect(rows).toHaveLength(2);
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/^Added 2 past appointments: /);
      for (const row of rows) {
        expect(added[0]).toContain(row.id);
        expect(row.status).toBe("confirmed");
        expect(row.startsAt.getTime()).toBeLessThan(Date.now());
      }
    });
  });
});
