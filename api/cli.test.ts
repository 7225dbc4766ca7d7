// The CLI once for real: a child process on a temporary PGlite directory, as an operator runs it.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "./db/index.ts";
import { appointments, doctorSpecialities, doctors, patients, specialities, users } from "./db/schema.ts";
import { verifyPassword } from "./auth/password.ts";

const exec = promisify(execFile);

describe("npm run admin (api/cli.ts)", () => {
  let dataDir: string;
  const doctorEmail = "Dr.Pending@Example.test";

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cli-test-"));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  async function cli(args: string[], env: Record<string, string> = {}) {
    const { DATABASE_URL: _ignored, ...rest } = process.env;
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

  /** Opens the CLI's database in this process (the CLI must not be running). */
  async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>) {
    const database = await openDatabase({ dataDir: path.join(dataDir, "db") });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }

  it("creates an admin with the password from ADMIN_PASSWORD, never printing it", async () => {
    const run = await cli(["create-admin", "root@example.test", "Root Admin"], { ADMIN_PASSWORD: "S3cret-pass" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Created admin root@example.test");
    expect(run.stdout + run.stderr).not.toContain("S3cret-pass");
    const row = await withDb(async (db) => (await db.select().from(users).where(eq(users.email, "root@example.test")))[0]);
    expect(row.role).toBe("admin");
    expect(await verifyPassword(row.passwordHash, "S3cret-pass")).toBe(true);
    expect((await cli(["create-admin", "root@example.test", "Again"], { ADMIN_PASSWORD: "S3cret-pass" })).code).toBe(1);
  }, 300_000);

  it("lists pending doctors, approves one by e-mail with specialities, and mails them", async () => {
    await withDb(async (db) => {
      const [user] = await db
        .insert(users)
        .values({ email: doctorEmail, username: "Dr Pending", passwordHash: "x", role: "doctor", otpVerified: true })
        .returning();
      await db.insert(doctors).values({ userId: user.id, serialNumber: "ORD-777", verification: "pending" });
    });
    const listed = await cli(["list-pending"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(doctorEmail);
    expect(listed.stdout).toContain("ORD-777");

    const approved = await cli(["approve", doctorEmail.toLowerCase(), "--speciality", "Cardiology", "--speciality", "Pédiatrie"]);
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain("Approved");
    const state = await withDb(async (db) => {
      const [user] = await db.select().from(users).where(eq(users.email, doctorEmail));
      const [doctor] = await db.select().from(doctors).where(eq(doctors.userId, user.id));
      const names = await db
        .select({ name: specialities.name })
        .from(doctorSpecialities)
        .innerJoin(specialities, eq(specialities.id, doctorSpecialities.specialityId))
        .where(eq(doctorSpecialities.doctorId, user.id));
      return { verification: doctor.verification, names: names.map((n) => n.name).sort() };
    });
    expect(state).toEqual({ verification: "verified", names: ["Cardiology", "Pediatrics"] });
    const outbox = await fs.readdir(path.join(dataDir, "outbox"));
    expect(outbox.some((f) => f.includes("Dr.Pending@Example.test".replace(/[^a-z0-9@.]/gi, "_")))).toBe(true);
    expect((await cli(["list-pending"])).stdout).toContain("No doctor is awaiting verification");
  }, 300_000);

  it("fails clearly: already decided or unknown doctor (exit 1), bad usage (exit 2)", async () => {
    const again = await cli(["reject", doctorEmail]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already verified");
    const unknown = await cli(["approve", "nobody@example.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Doctor not found");
    const usage = await cli(["frobnicate"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run admin");
  }, 300_000);
  it("demo-history gives a doctor and a patient past confirmed appointments, on a demo database only", async () => {
    const patientEmail = "history.patient@example.test";
    const patientId = await withDb(async (db) => {
      const [user] = await db.insert(users).values({ email: patientEmail, username: "History Patient", passwordHash: "x", role: "patient", otpVerified: true }).returning();
      await db.insert(patients).values({ userId: user.id });
      return user.id;
    });
    const history = () => withDb((db) => db.select().from(appointments).where(eq(appointments.patientId, patientId)));

    const refused = await cli(["demo-history", doctorEmail, patientEmail], { DEMO: "0" });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("demo databases only");
    expect(await history()).toEqual([]);
    expect((await cli(["demo-history", doctorEmail, "nobody@example.test"], { DEMO: "1" })).stderr).toContain("Patient not found");
    expect((await cli(["demo-history", doctorEmail, patientEmail, "--days", "99"], { DEMO: "1" })).code).toBe(2);

    const added = await cli(["demo-history", doctorEmail, patientEmail, "--days", "2"], { DEMO: "1" });
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const rows = await history();
    expect(rows).toHaveLength(2);
    expect(added.stdout).toContain(rows[0]!.id);
    for (const row of rows) {
      expect(row.status).toBe("confirmed");
      expect(row.startsAt.getTime()).toBeLessThan(Date.now());
    }
  }, 300_000);
});
