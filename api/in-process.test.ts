// The embedded API called without a socket answers what it answers over HTTP, with every check of
// its edge: authentication, validation, the body limit and content type, the throttles keyed by the
// browser's address, its error answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestListener } from "node:http";
import pino from "pino";
import { Writable } from "node:stream";
import { createApi } from "./app.ts";
import { httpTransport, type ApiCall } from "../contract/api-transport.ts";
import { callInProcess, inProcessTransport } from "./in-process.ts";
import { futureDate, startApi, type TestApi } from "./test/harness.ts";

let api: TestApi;
let inProcess: RequestListener;

beforeAll(async () => {
  api = await startApi();
  inProcess = createApi(api.deps) as unknown as RequestListener;
});
afterAll(async () => {
  await api?.close();
});

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers },
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The same request through the web tier's two transports (contract/api-transport.ts): status, content type and body. */
async function both(request: ApiCall) {
  const ours = await inProcessTransport(inProcess).call(request, 10_000);
  const overHttp = await httpTransport(api.url)(request, 10_000);
  return { ours, overHttp };
}

describe("the API called in-process", () => {
  it("answers a reference list and an unknown path as over HTTP", async () => {
    for (const url of ["/speciality", "/location/country", "/no/such/path", "/speciality?x=%00"]) {
      const { ours, overHttp } = await both({ method: "GET", url, headers: {} });
      expect(ours, url).toEqual(overHttp);
    }
    expect((await callInProcess(inProcess, { method: "GET", url: "/speciality", headers: {} })).status).toBe(200);
  });

  it("checks the bearer token and the role", async () => {
    const patient = await api.createPatient();
    const ok = await callInProcess(inProcess, {
      method: "GET",
      url: "/patient/summary",
      headers: bearer(patient.token),
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toHaveProperty("count");
    for (const headers of [{}, bearer("forged"), bearer(`${patient.token}x`)]) {
      const refused = await callInProcess(inProcess, { method: "GET", url: "/patient/summary", headers });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text).code).toBe("unauthorized");
    }
    const wrongRole = await callInProcess(inProcess, {
      method: "GET",
      url: "/doctor/summary",
      headers: bearer(patient.token),
    });
    expect(wrongRole.status).toBe(403);
  });

  it("takes a JSON body, validates it, and refuses a body too large or of another type, as over HTTP", async () => {
    const patient = await api.createPatient();
    const { user: doctor } = await api.createDoctor();
    const booking = { doctorId: doctor.id, type: "online", date: futureDate(20), time: "10:00" };
    const booked = await callInProcess(inProcess, {
      method: "POST",
      url: "/appointment",
      ...json(booking, bearer(patient.token)),
    });
    expect(booked.status, booked.text).toBe(201);
    expect(JSON.parse(booked.text).doctorId ?? JSON.parse(booked.text).doctor?.id).toBe(doctor.id);

    const refusals: ApiCall[] = [
      { method: "POST", url: "/appointment", ...json({ ...booking, time: "25:99" }, bearer(patient.token)) },
      {
        method: "POST",
        url: "/appointment",
        ...json({ ...booking, date: futureDate(21), note: "x".repeat(70 * 1024) }, bearer(patient.token)),
      },
      {
        method: "POST",
        url: "/appointment",
        body: "doctorId=1",
        headers: { "content-type": "application/x-www-form-urlencoded", ...bearer(patient.token) },
      },
      {
        method: "POST",
        url: "/appointment",
        body: "{not json",
        headers: { "content-type": "application/json", ...bearer(patient.token) },
      },
      {
        method: "POST",
        url: "/auth/login",
        ...json({ email: "a\u0000@example.test", password: "x", role: "patient" }),
      },
    ];
    const statuses = [];
    for (const request of refusals) {
      const { ours, overHttp } = await both(request);
      expect(ours.status, request.body?.slice(0, 40)).toBe(overHttp.status);
      expect(JSON.parse(ours.text), request.body?.slice(0, 40)).toEqual(JSON.parse(overHttp.text));
      statuses.push(ours.status);
    }
    expect(statuses).toEqual([400, 413, 415, 400, 400]);
  });

  it("throttles by the browser's address the web tier forwards, not by one address for everyone", async () => {
    const login = (ip: string) =>
      callInProcess(inProcess, {
        method: "POST",
        url: "/auth/login",
        ...json({ email: "nobody@example.test", password: "Wrong-1234", role: "patient" }, { "x-forwarded-for": ip }),
      });
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++) status = (await login("198.51.100.7")).status;
    expect(status).toBe(429);
    expect((await login("198.51.100.8")).status).not.toBe(429);
  });

  it("writes a debug line per call, and never the token", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: "debug" }, sink);
    const patient = await api.createPatient();
    const { call } = inProcessTransport(inProcess, logger);
    const answer = await call(
      {
        method: "GET",
        url: `/patient/summary?page=1`,
        headers: { ...bearer(patient.token), "x-request-id": "page-request-0001" },
      },
      10_000,
    );
    expect(answer.status).toBe(200);
    const line = JSON.parse(lines.at(-1) ?? "{}");
    expect(line).toMatchObject({
      level: 20,
      msg: "api call",
      requestId: "page-request-0001",
      method: "GET",
      route: "/patient/summary",
      status: 200,
    });
    expect(lines.join("")).not.toContain(patient.token);
  });

  it("takes the whole answer, fails none of the API's writes, and closes its stand-in socket once the last one has settled", async () => {
    const outcomes: Array<Error | null | undefined> = [];
    let socket: import("node:net").Socket | undefined;
    let destroyedAtFinish: boolean | undefined;
    const listener: RequestListener = (req, res) => {
      socket = req.socket;
      res.setHeader("content-type", "text/plain");
      res.write("first ", (error) => outcomes.push(error));
      res.end("second", () => outcomes.push(null));
      // Destroyed from inside the last write's callback (where 'finish' is emitted), the stream built
      // an ERR_STREAM_DESTROYED for nobody, twice a page (bench/README.md).
      res.once("finish", () => {
        destroyedAtFinish = req.socket?.destroyed;
      });
    };
    const answer = await callInProcess(listener, { method: "GET", url: "/", headers: {} });
    expect(answer).toEqual({ status: 200, contentType: "text/plain", text: "first second" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcomes).toHaveLength(2);
    expect(outcomes.filter(Boolean)).toEqual([]);
    expect(destroyedAtFinish).toBe(false);
    expect(socket?.destroyed).toBe(true);
  });
});

describe("a shutdown", () => {
  it("waits for the in-process calls under way before the database closes", async () => {
    let finish!: () => void;
    const slow: RequestListener = (_req, res) => {
      finish = () => res.writeHead(200, { "content-type": "application/json" }).end("{}");
    };
    const transport = inProcessTransport(slow);
    const call = transport.call({ method: "GET", url: "/speciality", headers: {} }, 10_000);
    let settled = false;
    const waiting = transport.settled(10_000).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    finish();
    await waiting;
    expect((await call).status).toBe(200);
    // Nothing under way: at once.
    await transport.settled(10_000);
  });

  it("gives up on a call that never ends, so the database still closes", async () => {
    const transport = inProcessTransport(() => {});
    // The page's own budget (5 s) gives up on the call too, as fetch's signal would: without its own
    // bound (0.1 s), the shutdown's wait would end only then, if at all, and the call would come first.
    const call = transport.call({ method: "GET", url: "/speciality", headers: {} }, 5_000);
    const first = await Promise.race([
      transport.settled(100).then(() => "the shutdown went on"),
      call.then(
        () => "the call was answered",
        () => "the call's budget ran out",
      ),
    ]);
    expect(first).toBe("the shutdown went on");
  });

  it("answers a TimeoutError once the page's budget is spent, as fetch's signal does", async () => {
    const transport = inProcessTransport(() => {});
    await expect(transport.call({ method: "GET", url: "/speciality", headers: {} }, 50)).rejects.toMatchObject({
      name: "TimeoutError",
    });
  });
});
