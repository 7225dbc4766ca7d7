// How the web app reaches the API (docs/architecture.md, The life of a request): a call and its
// answer, whichever way it goes. server.ts picks the way once, at start (the API in the same
// process, or over HTTP), and hands it to the web app through React Router's load context, so no
// module under app/ knows which it is, nor imports anything from api/.

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

/** The API at `baseUrl` (API_URL, or the process owning the embedded database), over HTTP. */
export function httpTransport(baseUrl: string): ApiTransport {
  const base = baseUrl.replace(/\/$/, "");
  return async (call, timeoutMs) => {
    const response = await fetch(base + call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body may stall after the headers: it is read within the same budget.
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get("content-type") ?? undefined, text };
  };
}
