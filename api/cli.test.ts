// `npm run admin` (api/cli.ts) as an operator runs it. The CLI is spawned once for each outcome an
// operator meets: a success (its answer on stdout, nothing on stderr, the password never printed),
// a refusal (exit 1), bad usage (exit 2), and mail written to the outbox folder of DATA_DIR. Each
// spawn opens the embedded database (about 2 CPU-seconds), so what only the command's code decides
// is checked in-process instead, on both databases: api/admin/commands.test.ts.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { addPendingDoctor, specialityNames } from "./admin/test-helpers.ts";
import { verifyPassword } from "./auth/password.ts";
import { doctors, users } from "./db/schema.ts";
import { migratedDataDir } from "./test/harness.ts";
import { openScratchDatabase } from "./test/scratch-database.ts";

const exec = promisify(execFile);

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

    const approved = await cli([
      "approve",
      doctorEmail.toLowerCase(),
      "--speciality",
      "Cardiology",
      "--speciality",
      "Pédiatrie",
    ]);
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
      expect({ verification: row.verification, names: await specialityNames(db, doctor.id) }).toEqual({
        verification: "verified",
        names: ["Cardiology", "Pediatrics"],
      });
    } finally {
      await database.close();
    }
  }, 300_000);
});
