// A web worker of the process owning the embedded database calls the owner's API by message
// (server-cluster.ts, ownerCaller and answerWorkerCall): its answers are the owner's in-process
// answers (api/in-process.test.ts holds those to the HTTP ones), whatever the call, and a call the
// owner cannot answer fails instead of waiting for ever.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { RequestListener } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../api/app.ts";
import { callInProcess, inProcessApi, type InProcessAnswer, type InProcessRequest } from "../api/in-process.ts";
import { startApi, type TestApi } from "../api/test/harness.ts";
import { closePageScope, isPageScopeOpen, openPageScope, PAGE_SCOPE_HEADER } from "../api/auth/page-scope.ts";
import { tokenLookupsDuring } from "../api/test/token-checks.ts";
import { answerWorkerCall, callOwnerByMessage, closeWorkerScopes, ownerCaller, type MessageChannel } from "../server-cluster.ts";

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
  // The page scopes the owner took from this worker's calls (server-cluster.ts keeps one set per worker).
  const scopes = new Set<string>();
  const copy = (message: unknown) => JSON.parse(JSON.stringify(message));
  const channel: MessageChannel & { disconnect(): void; sent: unknown[] } = {
    sent: [],
    send(message, callback) {
      this.sent.push(message);
      setImmediate(() => {
        callback(null);
        void answerWorkerCall(call, copy(message), scopes)?.then((answer) => worker.emit("message", copy(answer)));
      });
      return true;
    },
    on(event: "message" | "disconnect", listener: (message?: unknown) => void) {
      worker.on(event, listener);
      return this;
    },
    disconnect: () => worker.emit("disconnect"),
  };
  return { channel, worker, scopes };
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


// One token check per page (docs/performance.md) in every set-up: a worker's page scope lives in
// the worker's process, which the owner does not share, so the owner takes the key from the calls
// that come by message, and drops it when the worker says the page is done or the worker is gone.
describe("one token check per page of a web worker", () => {
  /** A page scope opened in a worker's process: a key the owner's registry has never seen. */
  const workerKey = () => randomBytes(16).toString("base64url");
  const call = (id: number, url: string, headers: Record<string, string>) => ({ type: "api-owner-call", id, request: { method: "GET", url, headers } });

  it("the calls of one page share one lookup at the owner; after the worker closes the scope each call looks up again", async () => {
    const { token } = await api.createPatient();
    const scopes = new Set<string>();
    const toOwner = (message: unknown) => answerWorkerCall((request) => callInProcess(owner, request), message, scopes);
    const key = workerKey();
    const headers = { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: key };
    const page = await tokenLookupsDuring(async () => {
      const answers = await Promise.all([toOwner(call(1, "/patient/summary?dashboard=1", headers)), toOwner(call(2, "/doctor?page=1", headers))]);
      expect(answers.map((a) => (a && "answer" in a ? a.answer.status : 0))).toEqual([200, 200]);
    });
    expect(page).toBe(1);
    expect(scopes).toEqual(new Set([key]));

    // The worker's page is done: the owner forgets the key, and answers nothing to that message.
    expect(toOwner({ type: "api-owner-close-scope", key })).toBeUndefined();
    expect(scopes.size).toBe(0);
    expect(isPageScopeOpen(key)).toBe(false);
    const otherKey = workerKey();
    expect(await tokenLookupsDuring(async () => toOwner(call(3, "/patient/summary", { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: otherKey })))).toBe(1);
    expect(isPageScopeOpen(otherKey)).toBe(true);
    // A worker gone without closing its scopes: the owner drops what it took from it.
    closeWorkerScopes(scopes);
    expect(isPageScopeOpen(otherKey)).toBe(false);
  });

  it("a key that comes over HTTP (the public /api forwarded to the owner) opens nothing: each call looks the token up", async () => {
    const { token } = await api.createPatient();
    const headers = { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: workerKey() };
    const overHttp = await tokenLookupsDuring(() => Promise.all([api.request("GET", "/patient/summary", { token, headers }), api.request("GET", "/patient/summary", { token, headers })]));
    expect(overHttp).toBe(2);
    // Nor does a malformed key by message: it is not taken as a scope.
    const scopes = new Set<string>();
    const bad = { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: "x".repeat(5000) };
    await answerWorkerCall((request) => callInProcess(owner, request), call(5, "/patient/summary", bad), scopes);
    expect(scopes.size).toBe(0);
  });

  it("a logout during the page stops the page's next call at the owner", async () => {
    const { token } = await api.createPatient();
    const scopes = new Set<string>();
    const toOwner = (message: unknown) => answerWorkerCall((request) => callInProcess(owner, request), message, scopes);
    const headers = { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: workerKey() };
    const first = await toOwner(call(1, "/patient/summary", headers));
    expect(first && "answer" in first && first.answer.status).toBe(200);
    expect((await api.request("POST", "/auth/logout", { token })).status).toBe(204);
    const next = await toOwner(call(2, "/patient/summary", headers));
    expect(next && "answer" in next && next.answer.status).toBe(401);
  });

  it("the worker tells the owner when its page is done, and a call made after that carries no key", async () => {
    const { token } = await api.createPatient();
    const { channel } = channelTo((request) => callInProcess(owner, request));
    // As server.ts sets up a worker.
    const stop = callOwnerByMessage(channel, 10_000);
    try {
      const byMessage = inProcessApi()!;
      const key = openPageScope();
      expect(key).toBeTypeOf("string");
      const headers = { authorization: `Bearer ${token}`, [PAGE_SCOPE_HEADER]: key! };
      await byMessage({ method: "GET", url: "/patient/summary", headers });
      closePageScope(key);
      await byMessage({ method: "GET", url: "/patient/summary", headers });
      const sent = channel.sent as { type: string; key?: string; request?: InProcessRequest }[];
      expect(sent.map((m) => m.type)).toEqual(["api-owner-call", "api-owner-close-scope", "api-owner-call"]);
      expect(sent[0].request?.headers[PAGE_SCOPE_HEADER]).toBe(key);
      expect(sent[1].key).toBe(key);
      expect(sent[2].request?.headers[PAGE_SCOPE_HEADER]).toBeUndefined();
    } finally {
      stop();
    }
  });
});
