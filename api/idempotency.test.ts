import { afterAll, beforeAll, describe, expect, it } from "vitest";
import express from "express";
import type { AddressInfo } from "node:net";
import { startApi, type TestApi } from "./test/harness.ts";
import { authenticate, errorHandler } from "./http.ts";
import { idempotent } from "./idempotency.ts";

describe("idempotency keys", () => {
  let api: TestApi;
  let url: string;
  let calls = 0;
  let server: import("node:http").Server;
  beforeAll(async () => {
    api = await startApi();
    const app = express();
    app.use(express.json());
    app.post("/count", authenticate(api.db), idempotent(api.db), (_req, res) => {
      calls += 1;
      res.status(201).json({ calls });
    });
    // Slow, and fails once when asked: copies of one submission arrive while it runs.
    let failNext = false;
    app.post("/slow", authenticate(api.db), idempotent(api.db), async (req, res) => {
      calls += 1;
      const mine = calls;
      await new Promise((r) => setTimeout(r, 300));
      if (req.get("x-fail") === "once" && !failNext) {
        failNext = true;
        res.status(500).json({ message: "boom" });
        return;
      }
      res.status(201).json({ calls: mine });
    });
    app.use(errorHandler);
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await api.close();
  });

  const post = (token: string, key?: string, path = "/count", extra: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, ...(key ? { "idempotency-key": key } : {}), ...extra },
    }).then(async (r) => ({ status: r.status, body: await r.json(), replayed: r.headers.get("idempotent-replayed") }));

  it("replays the first answer for the same user and key", async () => {
    const { token } = await api.createPatient();
    const first = await post(token, "key-aaaaaaaa");
    const second = await post(token, "key-aaaaaaaa");
    expect(first).toMatchObject({ status: 201, body: { calls: 1 } });
    expect(second).toMatchObject({ status: 201, body: { calls: 1 }, replayed: "true" });
    expect(calls).toBe(1);
  });

  it("keeps keys apart per user and acts without a key", async () => {
    const other = await api.createPatient();
    expect((await post(other.token, "key-aaaaaaaa")).body.calls).toBe(2);
    expect((await post(other.token)).body.calls).toBe(3);
    expect((await post(other.token)).body.calls).toBe(4);
  });

  it("runs copies of one submission arriving together once, and gives each the same answer", async () => {
    const { token } = await api.createPatient();
    const before = calls;
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(token, "key-together", "/slow")));
    expect(calls - before).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body]))).size).toBe(1);
    expect(answers[0]?.status).toBe(201);
    expect(answers.filter((a) => a.replayed === "true")).toHaveLength(4);
  });

  it("releases the key after a server error, so a retry acts for real", async () => {
    const { token } = await api.createPatient();
    const failed = await post(token, "key-fails-once", "/slow", { "x-fail": "once" });
    expect(failed.status).toBe(500);
    const retried = await post(token, "key-fails-once", "/slow", { "x-fail": "once" });
    expect(retried.status).toBe(201);
    expect(retried.replayed).toBeNull();
  });
});
