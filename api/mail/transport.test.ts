// MAIL_TRANSPORT: production refuses to start without a way to send mail unless the operator chose
// the outbox-only mode, and in that mode the codes never reach the log.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/index.ts";
import { mailOutbox } from "../db/schema.ts";
import { migratedDataDir } from "../test/harness.ts";
import { runApi } from "../test/run-process.ts";
import { mailTransportSetting } from "../../config.ts";

describe("MAIL_TRANSPORT", () => {
  it.each([
    [{ NODE_ENV: "production", SMTP_URL: "smtp://mail:25" }, "smtp"],
    [{ NODE_ENV: "production", MAIL_TRANSPORT: "outbox" }, "outbox"],
    [{ NODE_ENV: "production", MAIL_TRANSPORT: "outbox", SMTP_URL: "smtp://mail:25" }, "smtp"],
    [{ NODE_ENV: "production", MAIL_TRANSPORT: "smtp", SMTP_URL: "smtp://mail:25" }, "smtp"],
    [{ NODE_ENV: "development" }, "console"],
    [{}, "console"],
    [{ SMTP_URL: "smtp://mail:25" }, "smtp"],
  ])("%j -> %s", (env, expected) => {
    expect(mailTransportSetting(env)).toBe(expected);
  });

  it.each([
    [{ NODE_ENV: "production" }, /^SMTP_URL is required in production \(or set MAIL_TRANSPORT=outbox/],
    [
      { NODE_ENV: "production", MAIL_TRANSPORT: "console" },
      /^MAIL_TRANSPORT console prints codes to the log and is refused in production$/,
    ],
    [{ MAIL_TRANSPORT: "smtp" }, /^MAIL_TRANSPORT smtp needs SMTP_URL$/],
    [{ MAIL_TRANSPORT: "pigeon" }, /^MAIL_TRANSPORT must be smtp, outbox or console/],
  ])("%j is refused in one line naming the variable", (env, message) => {
    expect(() => mailTransportSetting(env)).toThrow(message);
  });
});

describe("starting in production", () => {
  it("refuses to start without SMTP_URL or MAIL_TRANSPORT=outbox", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "mail-prod-"));
    try {
      const { code, output } = await runApi({ NODE_ENV: "production", DATA_DIR: dataDir });
      expect(code).toBe(1);
      expect(output).toMatch(/^Configuration error: SMTP_URL is required in production/m);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("with MAIL_TRANSPORT=outbox keeps the mail in the database and never writes a code to the log", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "mail-outbox-"));
    await migratedDataDir(dataDir);
    try {
      const email = "outbox-only@example.test";
      const { code, output } = await runApi(
        { NODE_ENV: "production", DATA_DIR: dataDir, MAIL_TRANSPORT: "outbox" },
        async (url) => {
          const call = (p: string, body: unknown) =>
            fetch(url + p, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            });
          expect(
            (
              await call("/auth/register", {
                userRole: "patient",
                username: "Outbox Only",
                email,
                phone: "670000001",
                password: "Secret123!",
              })
            ).status,
          ).toBe(201);
          expect((await call("/auth/forgot-password", { email })).status).toBe(200);
        },
      );
      expect(code).toBe(0);
      const database = await openDatabase({ dataDir: path.join(dataDir, "db") });
      try {
        const queued = await database.db.select().from(mailOutbox);
        const codes = queued.map((m) => m.text.match(/\b(\d{6})\b/)?.[1]);
        expect(queued.map((m) => m.recipient)).toEqual([email, email]);
        for (const c of codes) {
          expect(c).toMatch(/^\d{6}$/);
          expect(output).not.toContain(c);
        }
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
