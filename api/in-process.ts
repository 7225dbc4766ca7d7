// The embedded API called by the web tier of its own process without a socket (docs/performance.md).
// A page's upstream calls went out through fetch to this same server's /api: undici, the loopback
// socket, and a second pass through the web server's own middleware (its log line, security
// headers, compression) for each call, about a tenth of a page's CPU (bench/README.md). Here a call
// is handed to the API's Express app as a request of node:http's own types, on a stand-in socket
// that keeps what the API writes: the API runs exactly as for a request from the network (its
// guards and body limit, authentication, throttles, validation, error answers), and the web tier
// reads the answer as it read fetch's.
//
// server.ts makes the transport (inProcessTransport) and hands it to the web app; with the API
// elsewhere it hands an HTTP transport instead (contract/api-transport.ts). Nothing here is global.
import { IncomingMessage, ServerResponse, type RequestListener } from "node:http";
import { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { ApiAnswer, ApiCall, ApiTransport } from "../contract/api-transport.ts";
import { routeOf } from "./logging.ts";

/**
 * The API `api` of this process as the web tier's transport. The page's own line is its access
 * log line; each call to the API is a `debug` line (docs/operations.md). `settled` lets a shutdown
 * wait for the calls under way before the database closes.
 */
export function inProcessTransport(
  api: RequestListener,
  logger?: Logger,
): { call: ApiTransport; settled(withinMs: number): Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  return {
    async call(request, timeoutMs) {
      const started = performance.now();
      const call = callInProcess(api, request);
      pending.add(call);
      const answer = await withinBudget(
        call.finally(() => pending.delete(call)),
        timeoutMs,
      );
      if (logger?.isLevelEnabled("debug")) {
        const durationMs = Math.round(performance.now() - started);
        logger.debug(
          {
            requestId: request.headers["x-request-id"],
            method: request.method,
            route: routeOf(request.url),
            status: answer.status,
            durationMs,
          },
          "api call",
        );
      }
      return answer;
    },
    /**
     * Resolves once no call is under way, or after `withinMs`. A page whose browser went away no
     * longer holds a connection, so the server's drain does not wait for it, but its loaders still
     * call the API: closing the database under them failed their queries. A call that never ends
     * (an API stuck on its database) must not keep the database from closing before the
     * shutdown's hard exit (api/serve.ts): past `withinMs` it is given up on.
     */
    async settled(withinMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const givenUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, withinMs);
      });
      const settled = (async () => {
        while (pending.size > 0) await Promise.allSettled([...pending]);
      })();
      await Promise.race([settled, givenUp]).finally(() => clearTimeout(timer));
    },
  };
}

/** The answer of an in-process call, or a TimeoutError once the page's budget is spent, as fetch's signal gives. */
function withinBudget<T>(answer: Promise<T>, remaining: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException("The API did not answer in time", "TimeoutError")), remaining);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What the API answers `request`. Its address is the loopback's, as a call over the loopback was:
 * the API trusts the X-Forwarded-For the web tier sets (api/trust-proxy.ts), so throttles see the
 * browser's address.
 */
export function callInProcess(api: RequestListener, request: ApiCall): Promise<ApiAnswer> {
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
