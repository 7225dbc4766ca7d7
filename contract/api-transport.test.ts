// The HTTP way to the API (httpTransport): the whole answer, its deadline whatever stalls, and a
// kept-alive connection the API closed just as a call was sent on it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpTransport } from "./api-transport.ts";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: http.RequestListener) {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the API over HTTP", () => {
  it("sends the call under the base path and gives the status, content type and whole body", async () => {
    const base = await serve((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        res.writeHead(201, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ url: req.url, method: req.method, body, length: req.headers["content-length"] }));
      });
    });
    const answer = await httpTransport(`${base}/api/`)(
      { method: "POST", url: "/appointment?x=1", headers: { "content-type": "application/json" }, body: '{"é":1}' },
      5_000,
    );
    expect(answer.status).toBe(201);
    expect(answer.contentType).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.text)).toEqual({
      url: "/api/appointment?x=1",
      method: "POST",
      body: '{"é":1}',
      length: "8",
    });
  });

  it("rejects with a TimeoutError when the answer's body stalls past the deadline", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"half":'); // and nothing more
    });
    const started = Date.now();
    const error = await httpTransport(base)({ method: "GET", url: "/slow", headers: {} }, 300).catch((e) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reads once more on a new connection when the kept-alive one was closed under it, and never sends a change twice", async () => {
    let received = 0;
    const base = await serve((req, res) => {
      received++;
      // The second request a connection carries finds it closed, as when the API's idle timeout
      // ends it the moment the call is sent.
      if ((req.socket as { served?: number }).served) return req.socket.destroy();
      (req.socket as { served?: number }).served = 1;
      res.end(req.url);
    });
    const call = httpTransport(base);
    expect((await call({ method: "GET", url: "/first", headers: {} }, 5_000)).text).toBe("/first");
    expect((await call({ method: "GET", url: "/second", headers: {} }, 5_000)).text).toBe("/second");
    expect(received).toBe(3);
    // A change on the reused connection is not sent again: the caller is told.
    const change = await call({ method: "POST", url: "/change", headers: {}, body: "{}" }, 5_000).catch((e) => e);
    expect((change as { code?: string }).code).toBe("ECONNRESET");
    expect(received).toBe(4);
  });
});
