// SMS_URL=smpps:// (docs/sms.md): the API, started as an operator starts it (api/main.ts in a child
// process), sends to a real SMPP gateway over TLS on 127.0.0.1 (api/test/smpp.ts) whose certificate
// a private authority made at test time signs (api/test/tls-certificates.ts). The API trusts that
// authority only through NODE_EXTRA_CA_CERTS, as an operator makes it trust a private gateway CA;
// Node reads that variable once, at the process's start, hence the child. Otherwise Node's own
// checks apply (a certificate chained to a trusted authority, issued for the host of SMS_URL), and
// a gateway that fails them gets nothing: the message stays queued and the log says why, without
// the password. On PGlite (the child's DATA_DIR) and, with TEST_DATABASE_URL, on a PostgreSQL
// database of its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Db } from "../db/index.ts";
import { smsOutbox } from "../db/schema.ts";
import { accountFactories } from "../test/harness.ts";
import { runApi } from "../test/run-process.ts";
import { openScratchDatabase } from "../test/scratch-database.ts";
import { startSmppServer } from "../test/smpp.ts";
import { type TestCertificate, testCertificateAuthority } from "../test/tls-certificates.ts";
import { expectFrenchConfirmation, inADay, pendingWithCardiologist } from "./test-notices.ts";
import { queueNoticeSms } from "./outbox.ts";
import { smppSender } from "./smpp.ts";

// The gateway's password: it must never reach the API's output.
const GATEWAY_PASSWORD = "tls-s3cr3t-pw";
const PHONE = "+237670004242";
const METRICS_TOKEN = "smpps-test-metrics-token";

let ca: ReturnType<typeof testCertificateAuthority>;
beforeAll(() => {
  ca = testCertificateAuthority();
});
afterAll(() => ca.remove());

/**
 * The data an API is started on: a copy of the run's template, written by `seed` first, in a
 * DATA_DIR of its own (PGlite in DATA_DIR/db, else a PostgreSQL database of its own). `env` starts
 * the API on it; `rows()` reads the SMS outbox once the API has stopped.
 */
async function appData<T>(seed: (db: Db) => Promise<T>) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "smpps-"));
  const scratch = await openScratchDatabase({
    serverUrl,
    dataDir: serverUrl ? undefined : path.join(dataDir, "db"),
    prefix: "smpps",
    template: inject("databaseTemplate"),
  });
  const seeded = await seed(scratch.db);
  await scratch.close();
  /** Opens the database while no API runs on it (PGlite has one owner), for `use`. */
  async function withDb<R>(use: (db: Db) => Promise<R>) {
    const database = await scratch.reopen();
    try {
      return await use(database.db);
    } finally {
      await database.close();
    }
  }
  return {
    seeded,
    env: { DATA_DIR: dataDir, ...(scratch.url ? { DATABASE_URL: scratch.url } : {}) },
    withDb,
    rows: () => withDb((db) => db.select().from(smsOutbox).where(eq(smsOutbox.recipient, PHONE))),
    async remove() {
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A French-speaking patient, Awa, with SMS on for a verified phone. */
const frenchPatient = (db: Db) =>
  accountFactories(db).createPatient({
    phone: PHONE,
    phoneVerified: true,
    sms: true,
    locale: "fr",
    username: "Awa Mbarga",
  });

/** A patient with a notice queued for their verified phone, sent when an API starts. */
async function queuedNotice(db: Db) {
  const patient = await frenchPatient(db);
  expect(
    await db.transaction((tx) =>
      queueNoticeSms(tx, { userId: patient.user.id, text: "over TLS", expiresAt: inADay() }),
    ),
  ).toBe(true);
}

describe("SMS over TLS (smpps://)", () => {
  it("a French-speaking patient's confirmation reaches a gateway of a private CA trusted with NODE_EXTRA_CA_CERTS as one SMS, and its receipt comes back", async () => {
    const gateway = await startSmppServer({ password: GATEWAY_PASSWORD, tls: ca.issue(["localhost", "127.0.0.1"]) });
    const data = await appData(async (db) => pendingWithCardiologist(db, (await frenchPatient(db)).user.id));
    const { doctor, appointment } = data.seeded;
    try {
      expect(gateway.url()).toMatch(/^smpps:\/\//);
      const { code, output } = await runApi(
        { ...data.env, SMS_URL: gateway.url(), NODE_EXTRA_CA_CERTS: ca.caFile, METRICS_TOKEN },
        async (url) => {
          const res = await fetch(`${url}/appointment/${appointment.id}`, {
            method: "PUT",
            headers: { authorization: `Bearer ${doctor.token}`, "content-type": "application/json" },
            body: JSON.stringify({ status: "confirmed" }),
          });
          expect(res.status).toBe(200);
          const [notice] = await gateway.waitFor(PHONE);
          expectFrenchConfirmation(notice, appointment);
          // The receipt the gateway sends back on the TLS session is recorded (read on /metrics).
          await vi.waitFor(async () => {
            const metrics = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
            expect(await metrics.text()).toMatch(/^sms_delivery_receipts\{[^}]*status="DELIVRD"[^}]*\} 1$/m);
          });
        },
      );
      expect(code, output).toBe(0);
      expect(gateway.received).toHaveLength(1);
      expect(gateway.binds).toBe(1);
      expect(await data.rows()).toMatchObject([
        { kind: "notice", messageId: gateway.received[0].messageId, deliveryStatus: "DELIVRD", attempts: 1 },
      ]);
      expect(output).not.toContain(GATEWAY_PASSWORD);
    } finally {
      await gateway.stop();
      await data.remove();
    }
  }, 60_000);

  /**
   * Starts the API (`env` beyond the data's) on a queued notice, against a gateway serving `cert`,
   * until its outbox logs the first failed attempt; answers the API's output, the row, the data and
   * the gateway, which the caller stops and removes.
   */
  async function refusedGateway(cert: TestCertificate, env: Record<string, string>) {
    const gateway = await startSmppServer({ password: GATEWAY_PASSWORD, tls: cert });
    const data = await appData(queuedNotice);
    try {
      const { code, output } = await runApi({ ...data.env, SMS_URL: gateway.url(), ...env }, async (_url, printed) => {
        await vi.waitFor(() => expect(printed()).toMatch(/\[sms\] outbox #\d+: attempt 1 failed/), { timeout: 10_000 });
      });
      expect(code, output).toBe(0);
      // Nothing reached the gateway: no bind, so neither the password nor a message crossed.
      expect(gateway.binds).toBe(0);
      expect(gateway.received).toHaveLength(0);
      expect(output).not.toContain(GATEWAY_PASSWORD);
      expect(output).not.toContain("over TLS");
      const [row] = await data.rows();
      expect(row).toMatchObject({ sentAt: null, failedAt: null, attempts: 1 });
      return { output, row, data, gateway };
    } catch (error) {
      await gateway.stop();
      await data.remove();
      throw error;
    }
  }

  it("sends nothing to a gateway whose certificate no trusted authority signed, logs why without the password, and delivers once the operator trusts its CA", async () => {
    const { output, row, data, gateway } = await refusedGateway(ca.issue(["localhost", "127.0.0.1"]), {});
    try {
      const reason =
        /TLS with the SMPP gateway at 127\.0\.0\.1:\d+ failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate/;
      expect(output).toMatch(new RegExp(`attempt 1 failed, next in 30 s: ${reason.source}`));
      expect(row.lastError).toMatch(reason);

      // The operator trusts the gateway's CA and restarts the API. The next attempt is due 30 s
      // after the failed one: the test brings it forward rather than wait.
      await data.withDb((db) => db.update(smsOutbox).set({ dueAt: sql`now()` }));
      await runApi({ ...data.env, SMS_URL: gateway.url(), NODE_EXTRA_CA_CERTS: ca.caFile }, async () => {
        await gateway.waitFor(PHONE);
      });
      expect(gateway.received.map((m) => m.text)).toEqual(["over TLS"]);
      expect(await data.rows()).toMatchObject([{ messageId: gateway.received[0].messageId, attempts: 2 }]);
    } finally {
      await gateway.stop();
      await data.remove();
    }
  }, 90_000);

  it("sends nothing to a gateway whose certificate, from a trusted authority, names another host", async () => {
    const { output, row, data, gateway } = await refusedGateway(ca.issue(["sms.other.example"]), {
      NODE_EXTRA_CA_CERTS: ca.caFile,
    });
    try {
      const reason =
        /TLS with the SMPP gateway at 127\.0\.0\.1:\d+ failed \(ERR_TLS_CERT_ALTNAME_INVALID: Hostname\/IP does not match certificate's altnames/;
      expect(output).toMatch(reason);
      expect(row.lastError).toMatch(reason);
    } finally {
      await gateway.stop();
      await data.remove();
    }
  }, 60_000);

  it("gives up on a plain SMPP port given as smpps:// after the answer time, saying the TLS handshake got no answer", async () => {
    // Run here, not in a child: the failure comes before any certificate is read.
    const plain = await startSmppServer({ password: GATEWAY_PASSWORD });
    const sender = smppSender({
      url: plain.url().replace(/^smpp:/, "smpps:"),
      from: "HealthBook",
      answerMs: 300,
      log: () => {},
    });
    try {
      await expect(sender.send({ to: PHONE, text: "over TLS" })).rejects.toThrow(
        /^TLS with the SMPP gateway at 127\.0\.0\.1:\d+ failed \(no handshake within 300 ms\)$/,
      );
      expect(plain.binds).toBe(0);
    } finally {
      await sender.close();
      await plain.stop();
    }
  });
});
