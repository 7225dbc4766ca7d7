// The mail outbox against a real SMTP server on 127.0.0.1: delivered once, retried after a failing
// server, kept across a restart, shared by several workers. On PGlite and, with TEST_DATABASE_URL,
// on PostgreSQL (where the workers run on separate connections, as separate instances would).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { inRequestTransaction, type Database } from "../db/index.ts";
import { mailOutbox } from "../db/schema.ts";
import { openScratchDatabase, type ScratchDatabase } from "../test/scratch-database.ts";
import { startSmtpServer, type TestSmtpServer } from "../test/smtp.ts";
import { createMailer } from "./index.ts";
import { outboxMailer, startOutboxWorker, type OutboxWorker } from "./outbox.ts";

let smtp: TestSmtpServer;
let scratch: ScratchDatabase;
const extra: Database[] = [];
const workers: OutboxWorker[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  // On disk (PGlite) or its own PostgreSQL database, so that it can be reopened as after a restart.
  const dataDir = process.env.TEST_DATABASE_URL ? undefined : mkdtempSync(path.join(os.tmpdir(), "outbox-"));
  scratch = await openScratchDatabase({
    serverUrl: process.env.TEST_DATABASE_URL,
    dataDir,
    prefix: "outbox",
    template: inject("databaseTemplate"),
  });
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop();
  await scratch.db.delete(mailOutbox);
  smtp.refuseNext(0);
});
afterAll(async () => {
  for (const database of extra) await database.close();
  await scratch.close();
  await scratch.drop();
  await smtp.close();
});

let n = 0;
const message = (tag: string) => ({
  to: `${tag}-${++n}@example.test`,
  subject: "Hello",
  text: "Your code: 123456",
  html: "<p>Your code: 123456</p>",
});
const smtpTransport = () => createMailer({ smtpUrl: smtp.url });
const worker = (db: Database["db"], options: Partial<Parameters<typeof startOutboxWorker>[0]> = {}) => {
  const w = startOutboxWorker({ db, transport: smtpTransport(), pollMs: 50, backoffMs: () => 100, ...options });
  workers.push(w);
  return w;
};

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the mail outbox", () => {
  it("writes nothing when the causing transaction rolls back, and delivers a committed mail once", async () => {
    const mailer = outboxMailer(scratch.db);
    const lost = message("rolled-back");
    await expect(
      scratch.db.transaction(async (tx) => {
        await mailer.enqueue(tx, lost);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const kept = message("committed");
    await scratch.db.transaction((tx) => mailer.enqueue(tx, kept));

    const w = worker(scratch.db);
    await until(() => smtp.to(kept.to).length === 1);
    await w.drain();
    expect(smtp.to(kept.to)).toHaveLength(1);
    expect(smtp.to(lost.to)).toHaveLength(0);
    expect(await scratch.db.select().from(mailOutbox)).toEqual([]);
  });

  it("sends a mail woken from inside a request's transaction after that transaction, outside it", async () => {
    // The routes queue mail and wake the worker within the request's transaction: the worker must
    // not carry that transaction into its own work (it was closed by then: 'Transaction is closed').
    const errors = vi.spyOn(console, "error");
    try {
      const mail = message("woken-in-request");
      const w = worker(scratch.db, { pollMs: 60_000 });
      await w.drain();
      const mailer = outboxMailer(scratch.db, w.wake);
      await inRequestTransaction(scratch.db, async (tx) => {
        await mailer.enqueue(tx, mail);
        mailer.wake();
      });
      await until(() => smtp.to(mail.to).length === 1, 5_000);
      await w.drain();
      expect(smtp.to(mail.to)).toHaveLength(1);
      expect(await scratch.db.select().from(mailOutbox)).toEqual([]);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("retries with backoff after a failing SMTP server, then delivers once", async () => {
    smtp.refuseNext(2);
    const mail = message("retry");
    const w = worker(scratch.db);
    await outboxMailer(scratch.db, w.wake).send(mail);
    await until(() => smtp.to(mail.to).length === 1);
    await w.drain();
    expect(smtp.to(mail.to)).toHaveLength(1);
    expect(await scratch.db.select().from(mailOutbox)).toEqual([]);
  });

  it("keeps a mail whose attempts are used up, marked failed with the reason, and sends it no more", async () => {
    smtp.refuseNext(100);
    const mail = message("given-up");
    const w = worker(scratch.db, { maxAttempts: 2 });
    await outboxMailer(scratch.db, w.wake).send(mail);
    await until(async () => (await scratch.db.select().from(mailOutbox))[0]?.failedAt != null);
    const [row] = await scratch.db.select().from(mailOutbox);
    expect(row.attempts).toBe(2);
    expect(row.lastError).toMatch(/451|unavailable/i);
    // The reason is one line about the server: the message's content is not in it.
    expect(row.lastError).not.toContain("123456");
    smtp.refuseNext(0);
    await w.drain();
    expect(smtp.to(mail.to)).toHaveLength(0);
  });

  it("loses nothing on a restart: mail queued before it is delivered once after it", async () => {
    const mails = [message("restart"), message("restart"), message("restart")];
    // The process queues mail, then stops before its worker sent any (the SMTP server was down).
    // One process at a time on an embedded database: the first handle is closed before reopening.
    await scratch.close();
    const before = await scratch.reopen();
    for (const mail of mails) await outboxMailer(before.db).send(mail);
    await before.close();

    const after = await scratch.reopen();
    // The rest of the file goes on with the reopened database.
    Object.assign(scratch, { db: after.db, close: after.close });
    const w = worker(after.db);
    await until(() => mails.every((m) => smtp.to(m.to).length === 1));
    await w.drain();
    for (const mail of mails) expect(smtp.to(mail.to)).toHaveLength(1);
  });

  it("stops cleanly: a send in progress finishes and its row is removed, nothing more is taken", async () => {
    const slow = await startSmtpServer({ delayMs: 300 });
    try {
      const w = startOutboxWorker({
        db: scratch.db,
        transport: createMailer({ smtpUrl: slow.url }),
        pollMs: 50,
        batchSize: 1,
      });
      const first = message("stop");
      const second = message("stop");
      await outboxMailer(scratch.db).send(first);
      await outboxMailer(scratch.db).send(second);
      w.wake();
      await until(async () => (await scratch.db.select().from(mailOutbox)).some((r) => r.attempts > 0));
      await w.stop();
      expect(slow.to(first.to)).toHaveLength(1);
      const left = await scratch.db.select().from(mailOutbox);
      expect(left.map((r) => r.recipient)).toEqual([second.to]);
    } finally {
      await slow.close();
    }
  });

  it("shares the work between several instances: every mail is sent exactly once", async () => {
    // On PostgreSQL each instance has its own connection pool; FOR UPDATE SKIP LOCKED splits the rows.
    const second = process.env.TEST_DATABASE_URL
      ? await scratch.reopen()
      : { db: scratch.db, close: async () => {}, kind: "pglite" as const, ping: async () => {} };
    extra.push(second);
    const mails = Array.from({ length: 30 }, () => message("shared"));
    const queue = outboxMailer(scratch.db);
    for (const mail of mails) await queue.send(mail);
    const a = worker(scratch.db, { batchSize: 3 });
    const b = worker(second.db, { batchSize: 3 });
    a.wake();
    b.wake();
    await until(() => mails.every((m) => smtp.to(m.to).length >= 1), 20_000);
    await Promise.all([a.drain(), b.drain()]);
    for (const mail of mails) expect(smtp.to(mail.to)).toHaveLength(1);
    expect(await scratch.db.select().from(mailOutbox)).toEqual([]);
  });
});
