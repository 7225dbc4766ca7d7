// The admin commands' answers (runCommand: what `npm run admin` and the running app both call),
// in-process on the test database, so that they run on PGlite and on PostgreSQL alike. The CLI as a
// process an operator spawns: api/cli.test.ts.
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "../../config.ts";
import { verifyPassword } from "../auth/password.ts";
import { appointments, doctors, users } from "../db/schema.ts";
import { ApiError } from "../http.ts";
import { clinicToday, zonedInstant } from "../time.ts";
import { memoryMailer } from "../mail/index.ts";
import { setUpApi } from "../test/harness.ts";
import { runCommand, UsageError } from "./commands.ts";
import { addPatient, addPendingDoctor, specialityNames } from "./test-helpers.ts";

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
    expect(await run(["create-admin", "root@example.test", "Root Admin"])).toEqual([
      "Created admin root@example.test.",
    ]);
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

    expect(
      await run(["approve", doctorEmail.toLowerCase(), "--speciality", "Cardiology", "--speciality", "Pédiatrie"]),
    ).toEqual([`Approved ${doctorEmail} (Cardiology, Pediatrics).`]);
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
      await expect(run(["demo-history", doctorEmail, patientEmail])).rejects.toThrow(
        new UsageError("demo-history is for demo databases only (DEMO=1)"),
      );
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

    it("with --today gives the pair one confirmed appointment today at 10:00, clinic time", async () => {
      const doctorEmail = "today.doctor@example.test";
      const patientEmail = "today.patient@example.test";
      const doctor = await api.createDoctor();
      await api.db.update(users).set({ email: doctorEmail }).where(eq(users.id, doctor.user.id));
      const patientId = await addPatient(api.db, patientEmail);
      withDemo("1");
      const added = await run(["demo-history", doctorEmail, patientEmail, "--today"]);
      expect(added[0]).toMatch(/^Added 1 appointments: /);
      const rows = await api.db.select().from(appointments).where(eq(appointments.patientId, patientId));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe("confirmed");
      expect(rows[0]!.startsAt.getTime()).toBe(zonedInstant(clinicToday(), "10:00").getTime());
    });
  });
});
