// The embedded API called by the web tier of its own process without a socket (docs/performance.md).
// A page's upstream calls went out through fetch to this same server's /api: undici, the loopback
// socket, and a second pass through the web server's own middleware (its log line, security
// headers, compression) for each call, about a tenth of a page's CPU (bench/README.md). Here a call
// is handed to the API's Express app as a request of node:http's own types, on a stand-in socket
// that keeps what the API writes: the API runs exactly as for a request from the network (its
// guards and body limit, authentication, throttles, validation, error answers), and the web tier
// reads the answer as it read fetch's.
//
// A web worker of the process that owns the embedded database registers a caller that hands each
// call to the owner by message (server-cluster.ts, serveThrough). With the API elsewhere (API_URL)
// nothing is registered and the web tier calls it over HTTP as before.
//
// The registry is kept on globalThis: this module is loaded twice in the web server (by server.ts
// with the API, and bundled into the React Router build), and both copies must see the same API.
import { IncomingMessage, ServerResponse, type RequestListener } from "node:http";
import { Duplex } from "node:stream";
import type { Logger } from "pino";
import { routeOf } from "./logging.ts";

export interface InProcessRequest {
  method: string;
  /** Path and query, as the API's own routes see them (no /api prefix). */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

export interface InProcessAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

type Caller = (request: InProcessRequest) => Promise<InProcessAnswer>;

interface Registry {
  call?: Caller;
  /** The calls under way: a shutdown lets them finish before the database closes. */
  pending?: Set<Promise<unknown>>;
}

const KEY = Symbol.for("healthcare-appointments.in-process-api");
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[KEY] ??= {});

/**
 * Called by the web server once its embedded API is open: the web tier calls it in-process from
 * now on. The page's own line is its access log line; each call to the API is a `debug` line
 * (docs/operations.md), and its duration and status are in the upstream metrics as before.
 */
export function serveInProcess(api: RequestListener, logger?: Logger) {
  serveThrough((request) => callInProcess(api, request), logger);
}

/**
 * Like serveInProcess, with the API in another process that `caller` reaches without HTTP: a web
 * worker of the process owning the embedded database calls it over the cluster's message channel
 * (server-cluster.ts).
 */
export function serveThrough(caller: Caller, logger?: Logger) {
  const pending = (registry.pending ??= new Set());
  registry.call = async (request) => {
    const started = performance.now();
    const call = caller(request);
    pending.add(call);
    const answer = await call.finally(() => pending.delete(call));
    if (logger?.isLevelEnabled("debug")) {
      const durationMs = Math.round(performance.now() - started);
      logger.debug({ requestId: request.headers["x-request-id"], method: request.method, route: routeOf(request.url), status: answer.status, durationMs }, "api call");
    }
    return answer;
  };
}

/** How to call the embedded API of this process, or undefined when the API runs elsewhere. */
export function inProcessApi(): Caller | undefined {
  return registry.call;
}

/**
 * Resolves once no in-process call is under way, or after `withinMs` (server.ts, before the database closes). A page whose
 * browser went away no longer holds a connection, so the server's drain does not wait for it, but its
 * loaders still call the API: closing the database under them failed their queries.
 */
export async function inProcessCallsSettled(withinMs: number): Promise<void> {
  const pending = registry.pending;
  // A call that never ends (an API stuck on its database) must not keep the database from closing
  // before the shutdown's hard exit (api/serve.ts): past `withinMs` it is given up on.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const givenUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, withinMs);
  });
  const settled = (async () => {
    while (pending && pending.size > 0) await Promise.allSettled([...pending]);
  })();
  await Promise.race([settled, givenUp]).finally(() => clearTimeout(timer));
}

/** For tests: the API runs elsewhere again. */
export function stopServingInProcess() {
  registry.call = undefined;
  registry.pending?.clear();
}

/**
 * What the API answers `request`. Its address is the loopback's, as a call over the loopback was:
 * the API trusts the X-Forwarded-For the web tier sets (api/trust-proxy.ts), so throttles see the
 * browser's address.
 */
export function callInProcess(api: RequestListener, request: InProcessRequest): Promise<InProcessAnswer> {
  return new Promise((resolve, reject) => {
    const written: Buffer[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    Object.assign(socket, { remoteAddress: "127.0.0.1", remotePort: 0, remoteFamily: "IPv4" });

    const req = new IncomingMessage(socket as never);
    req.method = request.method;
    req.url = request.url;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = "1.1";
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers: Record<string, string> = { host: "127.0.0.1", ...request.headers };
    if (body) headers["content-length"] = String(body.length);
    req.headers = headers;
    req.rawHeaders = Object.entries(headers).flat();
    if (body) req.push(body);
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    // The answer ends where the API's writing ends: no chunked framing to take apart again.
    res.useChunkedEncodingByDefault = false;
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.once("finish", () => {
      const output = Buffer.concat(written);
      // What the socket received is the header block, a blank line, and the body.
      const start = output.indexOf("\r\n\r\n");
      const contentType = res.getHeader("content-type");
      resolve({
        status: res.statusCode,
        contentType: contentType === undefined ? undefined : String(contentType),
        text: start === -1 ? "" : output.toString("utf8", start + 4),
      });
      res.detachSocket(socket as never);
      // Not from inside this write's own callback ('finish' is emitted there): the stream would
      // then find itself destroyed with its write unsettled and build an ERR_STREAM_DESTROYED
      // (stack trace and all) for nobody, twice a page (bench/README.md).
      process.nextTick(() => socket.destroy());
    });
    res.once("error", reject);
    try {
      api(req, res);
    } catch (error) {
      reject(error);
    }
  });
}
