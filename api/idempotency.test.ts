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
    app.use(errorHandler);
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await api.close();
  });

  const post = (token: string, key?: string) =>
    fetch(`${url}/count`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, ...(key ? { "idempotency-key": key } : {}) },
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
});
