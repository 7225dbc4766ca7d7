// Idempotency keys, on PGlite and (with TEST_DATABASE_URL) PostgreSQL. Every test has its own
// users, keys and counters: none depends on another having run, or on their order.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import express from "express";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { futureDate, startApi, type TestApi } from "./test/harness.ts";
import { type Served, serve } from "./test/serve.ts";
import { matches } from "./test/contract-match.ts";
import { authenticate, errorHandler } from "./http.ts";
import { idempotent, KEY_TTL_MS } from "./idempotency.ts";
import { createApi } from "./app.ts";
import type { Db } from "./db/index.ts";
import { appointments, idempotencyKeys, workingPlans } from "./db/schema.ts";
import { appointment } from "../contract/appointment.ts";

let api: TestApi;
const servers: Served[] = [];
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await Promise.all(servers.map((served) => served.close()));
  await api.close();
});

async function listen(app: express.Express) {
  const served = await serve(app);
  servers.push(served);
  return served.url;
}

const newKey = () => `key-${randomUUID()}`;

async function post(url: string, token: string, key?: string, body: unknown = {}, extra: Record<string, string> = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(key ? { "idempotency-key": key } : {}),
      ...extra,
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as unknown, replayed: r.headers.get("idempotent-replayed") };
}

describe("idempotency keys (a counting route)", () => {
  let url: string;
  const calls = new Map<string, number>();
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    // Counts per test tag, so tests share nothing.
    app.post("/count/:tag", authenticate(api.db), idempotent(api.db), async (req, res) => {
      const tag = String(req.params.tag);
      const n = (calls.get(tag) ?? 0) + 1;
      calls.set(tag, n);
      if (req.get("x-slow")) await new Promise((r) => setTimeout(r, 300));
      if (req.get("x-fail") === "once" && n === 1) {
        res.status(500).json({ message: "boom" });
        return;
      }
      if (req.get("x-refuse")) {
        res.status(409).json({ message: "refused", code: "refused" });
        return;
      }
      res.status(201).json({ calls: n });
    });
    app.use(errorHandler);
    url = await listen(app);
  });
  const count = (tag: string) => `${url}/count/${tag}`;

  it("replays the first answer for the same user, key and body", async () => {
    const { token } = await api.createPatient();
    const key = newKey();
    const first = await post(count("replay"), token, key, { a: 1, b: [1, 2] });
    const second = await post(count("replay"), token, key, { b: [1, 2], a: 1 });
    expect(first).toMatchObject({ status: 201, body: { calls: 1 }, replayed: null });
    expect(second).toMatchObject({ status: 201, body: { calls: 1 }, replayed: "true" });
    expect(calls.get("replay")).toBe(1);
  });

  it("keeps keys apart per user, and acts every time without a key", async () => {
    const one = await api.createPatient();
    const two = await api.createPatient();
    const key = newKey();
    expect((await post(count("apart"), one.token, key)).body).toMatchObject({ calls: 1 });
    expect((await post(count("apart"), two.token, key)).body).toMatchObject({ calls: 2 });
    expect((await post(count("apart"), two.token)).body).toMatchObject({ calls: 3 });
    expect((await post(count("apart"), two.token)).body).toMatchObject({ calls: 4 });
  });

  it("refuses a key reused for a different request, with a clear message, and acts no more", async () => {
    const { token } = await api.createPatient();
    const key = newKey();
    expect((await post(count("reused"), token, key, { slot: "09:00" })).status).toBe(201);
    const reused = await post(count("reused"), token, key, { slot: "10:00" });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      code: "idempotency_key_reused",
      message: expect.stringContaining("different request"),
    });
    expect(calls.get("reused")).toBe(1);
    // Same key, same body: still the first answer.
    expect(await post(count("reused"), token, key, { slot: "09:00" })).toMatchObject({ status: 201, replayed: "true" });
  });

  it("forgets a key once it has expired: the same key then acts anew", async () => {
    const { user, token } = await api.createPatient();
    const key = newKey();
    expect((await post(count("expiry"), token, key)).body).toMatchObject({ calls: 1 });
    await api.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - KEY_TTL_MS - 60_000) })
      .where(eq(idempotencyKeys.userId, user.id));
    const again = await post(count("expiry"), token, key);
    expect(again).toMatchObject({ status: 201, body: { calls: 2 }, replayed: null });
    expect(await post(count("expiry"), token, key)).toMatchObject({
      status: 201,
      body: { calls: 2 },
      replayed: "true",
    });
  });

  it("runs copies of one submission arriving together once, and gives each the same answer", async () => {
    const { token } = await api.createPatient();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(count("together"), token, key, {}, { "x-slow": "1" })),
    );
    expect(calls.get("together")).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body]))).size).toBe(1);
    expect(answers[0]?.status).toBe(201);
    expect(answers.filter((a) => a.replayed === "true")).toHaveLength(4);
  });

  it("forgets a server error or a refusal, so a retry (or the corrected form) acts for real", async () => {
    const { token } = await api.createPatient();
    const key = newKey();
    expect((await post(count("fails"), token, key, {}, { "x-fail": "once" })).status).toBe(500);
    const retried = await post(count("fails"), token, key, {}, { "x-fail": "once" });
    expect(retried).toMatchObject({ status: 201, body: { calls: 2 }, replayed: null });

    const refusedKey = newKey();
    expect((await post(count("refused"), token, refusedKey, { slot: "09:00" }, { "x-refuse": "1" })).status).toBe(409);
    expect(await post(count("refused"), token, refusedKey, { slot: "10:00" })).toMatchObject({
      status: 201,
      body: { calls: 2 },
      replayed: null,
    });
  });
});

// Reported by a fuzzer: the key's fingerprint walked the body recursively, so 5,000 nested arrays
// overflowed the stack (a 500 and a stack trace) where the same body without a key got a 400. The
// API's edge refuses a body nested that deep before any route, key or not (docs/errors.md).
describe("a body nested 5,000 deep", () => {
  const deep = (open: string, close: string, inner = "1") => `${open.repeat(5000)}${inner}${close.repeat(5000)}`;
  it.each([
    ["arrays", deep("[", "]")],
    ["objects", deep('{"a":', "}")],
    ["arrays in the proposal's own field", `{"appointmentId":${deep("[", "]")}}`],
  ])("of %s is refused with 400, with or without an idempotency key, and logs no stack", async (_name, body) => {
    const doctor = await api.createDoctor({ username: "Dr Deep" });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const answers: Record<string, unknown> = {};
      for (const key of [undefined, newKey()]) {
        const r = await fetch(`${api.url}/appointment-proposal`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${doctor.token}`,
            "content-type": "application/json",
            ...(key ? { "idempotency-key": key } : {}),
          },
          body,
        });
        answers[key ? "with a key" : "without a key"] = { status: r.status, ...((await r.json()) as object) };
      }
      const refused = { status: 400, code: "invalid_request", message: expect.any(String) };
      expect(answers).toEqual({ "without a key": refused, "with a key": refused });
      expect(error).not.toHaveBeenCalled();
      expect(await api.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, doctor.user.id))).toEqual([]);
    } finally {
      error.mockRestore();
    }
  });
});

/**
 * The API on `db`, in a process that dies the moment it is about to record an answer for an
 * idempotency key (after the guarded change was made): the statement throws, and nothing else this
 * instance would do afterwards matters, since its answer never reaches the patient.
 */
function dyingBeforeTheRecord(db: Db): Db {
  const wrap = (target: Db): Db =>
    new Proxy(target, {
      get(t, property) {
        if (property === "transaction") {
          return (work: (tx: Db) => Promise<unknown>, config?: unknown) =>
            (t.transaction as (...args: unknown[]) => unknown).call(t, (tx: Db) => work(wrap(tx)), config);
        }
        if (property === "update") {
          return (table: unknown) => {
            if (table === idempotencyKeys) throw new Error("the process died");
            return t.update(table as typeof idempotencyKeys);
          };
        }
        const value = Reflect.get(t, property, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  return wrap(db);
}

describe("a booking retried after a crash", () => {
  let crashing: string;
  beforeAll(async () => {
    crashing = await listen(createApi({ ...api.deps, db: dyingBeforeTheRecord(api.db) }));
  });

  const book = (base: string, token: string, key: string, body: unknown) =>
    post(`${base}/appointment`, token, key, body);
  const bookingsOf = async (patientId: string) =>
    api.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.patientId, patientId)));

  it("books the slot for the patient, once, when the instance died before recording the key", async () => {
    const doctor = await api.createDoctor({ username: "Dr Crash" });
    const patient = await api.createPatient();
    const key = newKey();
    const body = { doctorId: doctor.user.id, type: "online", date: futureDate(11), time: "10:00" };
    // The answer of the dying instance never reaches the patient; the phone retries on the
    // instance that took over (or on the same one, restarted).
    await book(crashing, patient.token, key, body);
    const retry = await book(api.url, patient.token, key, body);
    expect(retry.body).not.toMatchObject({ code: "slot_taken" });
    expect(retry.status).toBe(201);
    const { id } = matches(appointment, retry.body);
    const rows = await bookingsOf(patient.user.id);
    expect(rows).toEqual([{ id }]);
    // And from then on the key replays that booking.
    expect(await book(api.url, patient.token, key, body)).toMatchObject({
      status: 201,
      body: { id },
      replayed: "true",
    });
  });

  // PostgreSQL only: the booking is held by a lock another connection takes, which PGlite's one
  // connection cannot hold while serving the request.
  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "finishes a booking whose client went away in its own transaction: the retry replays it",
    async () => {
      const doctor = await api.createDoctor({ username: "Dr Gone Client" });
      const patient = await api.createPatient();
      const key = newKey();
      const body = { doctorId: doctor.user.id, type: "online", date: futureDate(13), time: "14:00" };
      // The doctor's plan is locked: the booking waits in the middle of its transaction.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const lock = api.db.transaction(async (tx) => {
        await tx.select().from(workingPlans).where(eq(workingPlans.doctorId, doctor.user.id)).for("update");
        locked();
        await held;
      });
      await lockTaken;
      // The client (a web instance killed, a phone losing its network) goes away meanwhile.
      const gone = new AbortController();
      const sent = fetch(`${api.url}/appointment`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${patient.token}`,
          "content-type": "application/json",
          "idempotency-key": key,
        },
        body: JSON.stringify(body),
        signal: gone.signal,
      }).catch(() => "aborted");
      await new Promise((resolve) => setTimeout(resolve, 300));
      gone.abort();
      expect(await sent).toBe("aborted");
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await lock;
      // Other requests meanwhile run in transactions of their own, untouched.
      const others = await Promise.all(
        [15, 16, 17].map(async (days) => {
          const other = await api.createPatient();
          return book(api.url, other.token, newKey(), { ...body, date: futureDate(days) });
        }),
      );
      expect(others.map((o) => o.status)).toEqual([201, 201, 201]);
      // The booking was done whole, its key with it: the patient's retry replays it.
      await expect.poll(async () => (await bookingsOf(patient.user.id)).length).toBe(1);
      const retry = await book(api.url, patient.token, key, body);
      expect(retry).toMatchObject({ status: 201, replayed: "true" });
    },
  );

  it("replays the booking when the answer was lost after the commit", async () => {
    const doctor = await api.createDoctor({ username: "Dr Lost Answer" });
    const patient = await api.createPatient();
    const key = newKey();
    const body = { doctorId: doctor.user.id, type: "online", date: futureDate(12), time: "11:00" };
    const lost = await book(api.url, patient.token, key, body);
    expect(lost.status).toBe(201);
    const retry = await book(api.url, patient.token, key, body);
    expect(retry).toMatchObject({ status: 201, body: { id: matches(appointment, lost.body).id }, replayed: "true" });
    expect(await bookingsOf(patient.user.id)).toHaveLength(1);
  });
});
