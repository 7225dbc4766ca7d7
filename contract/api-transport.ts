// How the web app reaches the API (docs/architecture.md, The life of a request): a call and its
// answer, whichever way it goes. server.ts picks the way once, at start (the API in the same
// process, or over HTTP), and hands it to the web app through React Router's load context, so no
// module under app/ knows which it is, nor imports anything from api/.
import http from "node:http";
import https from "node:https";

/** A call to the API. */
export interface ApiCall {
  method: string;
  /** Path and query, as the API's own routes see them (no /api prefix). */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

/** The API's answer: its status, content type and body as text. */
export interface ApiAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/**
 * One way to the API. Rejects with a DOMException named TimeoutError once `timeoutMs` has passed
 * without a whole answer, and with any other error when the API could not be reached.
 */
export type ApiTransport = (call: ApiCall, timeoutMs: number) => Promise<ApiAnswer>;

/**
 * The header that carries a page scope's key (api/auth/page-scope.ts): the calls of one page share
 * one token check. Only sent when the API runs in the web app's own process.
 */
export const PAGE_SCOPE_HEADER = "x-page-scope";

/** What the web app is given by server.ts for every request (app/context.ts, servicesContext). */
export interface WebServices {
  callApi: ApiTransport;
  /** One token check per page: present only when the API runs in this process. */
  pageScopes?: { open(): string; close(key: string): void };
  /** One call to the API, timed for the metrics; `outcome` is the status, or why there was none. */
  observeApiCall(method: string, path: string, seconds: number, outcome: number | "network" | "timeout"): void;
}

/**
 * The API at `baseUrl` (API_URL, or the process owning the embedded database), over HTTP, on
 * connections kept open between calls. node:http rather than fetch: a call costs the web process
 * about a third of fetch's CPU (fetch builds web streams, a Request and a Response for each), and a
 * page makes two (bench/README.md).
 */
export function httpTransport(baseUrl: string): ApiTransport {
  const base = new URL(baseUrl);
  const client = base.protocol === "https:" ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const prefix = base.pathname.replace(/\/$/, "");
  const headersOf = (call: ApiCall) =>
    call.body === undefined
      ? call.headers
      : { ...call.headers, "content-length": String(Buffer.byteLength(call.body)) };
  const send = (call: ApiCall, signal: AbortSignal, retried: boolean): Promise<ApiAnswer> =>
    new Promise<ApiAnswer>((resolve, reject) => {
      const request = client.request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path: prefix + call.url,
          method: call.method,
          headers: headersOf(call),
          agent,
          signal,
        },
        (response) => {
          response.setEncoding("utf8");
          let text = "";
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 502, contentType: response.headers["content-type"], text }),
          );
          response.on("error", fail);
        },
      );
      // Past the deadline the request is destroyed, whatever it was waiting for (the headers or
      // the rest of a body that stalled): the caller sees the timeout, not the socket's error.
      function fail(error: Error & { code?: string }) {
        if (signal.aborted) return reject(signal.reason);
        // A kept-alive connection the API closed just as this read was sent on it: once more, on a
        // new one (reads only; a change is never sent twice).
        if (!retried && request.reusedSocket && error.code === "ECONNRESET" && ["GET", "HEAD"].includes(call.method))
          return resolve(send(call, signal, true));
        reject(error);
      }
      request.on("error", fail);
      request.end(call.body);
    });
  return (call, timeoutMs) => send(call, AbortSignal.timeout(timeoutMs), false);
}
