// A web worker of the process owning the embedded database calls the owner's API by message
// (server-cluster.ts, ownerCaller and answerWorkerCall): its answers are the owner's in-process
// answers (api/in-process.test.ts holds those to the HTTP ones), whatever the call, and a call the
// owner cannot answer fails instead of waiting for ever.
import { EventEmitter } from "node:events";
import type { RequestListener } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../api/app.ts";
import { callInProcess, type InProcessAnswer, type InProcessRequest } from "../api/in-process.ts";
import { startApi, type TestApi } from "../api/test/harness.ts";
import { answerWorkerCall, ownerCaller, type MessageChannel } from "../server-cluster.ts";

let api: TestApi;
let owner: RequestListener;

beforeAll(async () => {
  api = await startApi();
  owner = createApi(api.deps) as unknown as RequestListener;
});
afterAll(() => api?.close());

/**
 * A worker's channel to an owner answering with `call`: messages cross it serialized, as over the
 * cluster's IPC pipe, and a turn of the event loop apart.
 */
function channelTo(call: (request: InProcessRequest) => Promise<InProcessAnswer>) {
  const worker = new EventEmitter();
  const copy = (message: unknown) => JSON.parse(JSON.stringify(message));
  const channel: MessageChannel & { disconnect(): void; sent: unknown[] } = {
    sent: [],
    send(message, callback) {
      this.sent.push(message);
      setImmediate(() => {
        callback(null);
        void answerWorkerCall(call, copy(message))?.then((answer) => worker.emit("message", copy(answer)));
      });
      return true;
    },
    on(event: "message" | "disconnect", listener: (message?: unknown) => void) {
      worker.on(event, listener);
      return this;
    },
    disconnect: () => worker.emit("disconnect"),
  };
  return { channel, worker };
}

const json = (body: unknown, token?: string) => ({
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
});

describe("a web worker's calls to the owner's API by message", () => {
  it("answer what the owner's API answers in-process: lists, a signed-in page's summary, refusals, a body, an unknown path", async () => {
    const patient = await api.createPatient();
    const { user: doctor } = await api.createDoctor();
    const calls: InProcessRequest[] = [
      { method: "GET", url: "/speciality", headers: {} },
      { method: "GET", url: "/patient/summary?dashboard=1", headers: { authorization: `Bearer ${patient.token}` } },
      { method: "GET", url: "/patient/summary", headers: { authorization: "Bearer forged" } },
      { method: "GET", url: "/doctor/summary", headers: { authorization: `Bearer ${patient.token}` } },
      { method: "GET", url: `/doctor?name=${encodeURIComponent("Dr")}&page=1`, headers: { authorization: `Bearer ${patient.token}` } },
      { method: "POST", url: "/appointment", ...json({ doctorId: doctor.id, type: "online", date: "not a date", time: "10:00" }, patient.token) },
      { method: "GET", url: "/no/such/path", headers: {} },
    ];
    const { channel } = channelTo((request) => callInProcess(owner, request));
    const byMessage = ownerCaller(channel, 10_000);
    // All at once, as a page's loaders call: each answer comes back to its own call.
    const answers = await Promise.all(calls.map((request) => byMessage(request)));
    for (const [i, request] of calls.entries()) {
      const expected = await callInProcess(owner, request);
      expect(answers[i], `${request.method} ${request.url}`).toEqual(expected);
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 403, 200, 400, 404]);
    expect(channel.sent).toHaveLength(calls.length);
  });

  it("fail when the owner's API fails, or when the owner is gone before it answers", async () => {
    const failing = ownerCaller(channelTo(() => Promise.reject(new Error("database closed"))).channel, 10_000);
    await expect(failing({ method: "GET", url: "/speciality", headers: {} })).rejects.toThrow("failed to answer");

    const { channel } = channelTo(() => new Promise<never>(() => {}));
    const pending = ownerCaller(channel, 10_000)({ method: "GET", url: "/speciality", headers: {} });
    await new Promise((resolve) => setImmediate(resolve));
    channel.disconnect();
    await expect(pending).rejects.toThrow("is gone");
  });

  it("give up a call the owner never answers, as a fetch's timeout would", async () => {
    const stuck = ownerCaller(channelTo(() => new Promise<never>(() => {})).channel, 50);
    await expect(stuck({ method: "GET", url: "/speciality", headers: {} })).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("leave the process's other messages alone, on either side", async () => {
    expect(answerWorkerCall((request) => callInProcess(owner, request), { cmd: "NODE_CLUSTER", act: "online" })).toBeUndefined();
    expect(answerWorkerCall(undefined, { type: "api-owner-call", id: 1, request: { method: "GET", url: "/speciality", headers: {} } })).toBeUndefined();
    const { channel, worker } = channelTo((request) => callInProcess(owner, request));
    const byMessage = ownerCaller(channel, 10_000);
    worker.emit("message", { type: "api-owner-answer", id: 999, answer: { status: 200, text: "stray" } });
    worker.emit("message", "hello");
    expect((await byMessage({ method: "GET", url: "/speciality", headers: {} })).status).toBe(200);
  });
});
