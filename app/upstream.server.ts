// The one module that talks to the upstream API (docs/product.md, The API): JSON, bearer token from the
// session, a timeout, the caller's language and address, and the 401 rule (docs/architecture.md, The session).
import { createContext, data, type RouterContextProvider } from "react-router";
import { loadConfig } from "../config.ts";
import { pageContext } from "./context.ts";
import { loginPath, logoutRedirect } from "./session.server.ts";
import { observeUpstream } from "../api/metrics.ts";
import { PAGE_SCOPE_HEADER } from "../api/auth/page-scope.ts";
import { inProcessApi, type InProcessAnswer } from "../api/in-process.ts";

const config = loadConfig();
/** The API's path on this server (`/api`), which the embedded API's own routes do not see. */
const apiBase = new URL(config.apiUrl).pathname.replace(/\/$/, "");

/**
 * The browser's address, forwarded so the API can throttle, and the request id, so that the API's
 * log lines of a page load carry the web tier's id (api/logging.ts).
 */
export const requestInfoContext = createContext<{ ip: string; requestId?: string }>({ ip: "" });

export type UpstreamResult<T> =
  | { ok: true; status: number; data: T }
  // No `message`: the API's text is for developers; the screen says what app/upstream-errors.ts gives.
  | { ok: false; status: number; code?: string; body: Record<string, unknown> };

type Query = Record<string, string | number | boolean | undefined | null>;

interface CallOptions {
  body?: unknown;
  query?: Query;
  /** Sent as Idempotency-Key so a retried form submission never acts twice. */
  idempotencyKey?: string;
}

// 401 from these means "wrong code", not "session over" (docs/product.md, The API).
const keepsSessionOn401 = ["/auth/verifyUser/", "/auth/verifyProfileOtp/", "/auth/login", "/auth/logout"];

// Reference lists (specialities, countries, a country's cities) are the same for every user and
// language and change only with a release's seed: kept five minutes, they spare most pages two or
// three upstream calls (bench/ssr.ts).
const REFERENCE_PATH = /^\/(speciality|location\/country|location\/city\/\d+)$/;
const REFERENCE_TTL_MS = 5 * 60_000;
const referenceCache = new Map<string, { until: number; result: UpstreamResult<unknown> }>();

// One time budget per page request, shared by all its upstream calls (an action and the loaders
// that follow it included): a hanging upstream costs the user API_TIMEOUT_MS once, not once per call.
const deadlines = new WeakMap<object, number>();
const unreachable = (): UpstreamResult<never> => ({ ok: false, status: 503, code: "network", body: {} });

export function createUpstream(
  request: Request,
  options: { token?: string; pageScope?: string; context?: Readonly<RouterContextProvider>; language?: string } = {},
) {
  async function call<T>(method: string, path: string, call: CallOptions = {}): Promise<UpstreamResult<T>> {
    if (method !== "GET" || call.query || !REFERENCE_PATH.test(path)) return send<T>(method, path, call);
    const cached = referenceCache.get(path);
    if (cached && cached.until > Date.now()) return cached.result as UpstreamResult<T>;
    const result = await send<T>(method, path, call);
    if (result.ok) referenceCache.set(path, { until: Date.now() + REFERENCE_TTL_MS, result });
    return result;
  }

  async function send<T>(method: string, path: string, call: CallOptions): Promise<UpstreamResult<T>> {
    const url = new URL(config.apiUrl + path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, String(value));
    }
    // No compression between the web tier and the API (same process or same network): fetch asks
    // for gzip by default, and compressing JSON only to inflate it again cost CPU on every call.
    const headers: Record<string, string> = { accept: "application/json", "accept-encoding": "identity" };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.token && options.pageScope) headers[PAGE_SCOPE_HEADER] = options.pageScope;
    if (call.idempotencyKey) headers["idempotency-key"] = call.idempotencyKey;
    if (options.language) headers["accept-language"] = options.language;
    const info = options.context?.get(requestInfoContext);
    if (info?.ip) headers["x-forwarded-for"] = info.ip;
    if (info?.requestId) headers["x-request-id"] = info.requestId;
    const budgetKey = options.context ?? request;
    const deadline = deadlines.get(budgetKey) ?? Date.now() + config.API_TIMEOUT_MS;
    deadlines.set(budgetKey, deadline);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      observeUpstream(method, path, 0, "timeout");
      return unreachable();
    }
    let answer: InProcessAnswer;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    try {
      // The embedded API of this process is called without a socket (api/in-process.ts).
      const inProcess = inProcessApi();
      answer = inProcess
        ? await withinBudget(inProcess({ method, url: url.pathname.slice(apiBase.length) + url.search, headers, body }), remaining)
        : await overHttp(method, url, headers, body, remaining);
    } catch (error) {
      observeUpstream(method, path, seconds(), (error as Error).name === "TimeoutError" ? "timeout" : "network");
      return unreachable();
    }
    const response = { status: answer.status, ok: answer.status >= 200 && answer.status < 300 };
    observeUpstream(method, path, seconds(), response.status);
    let data: unknown = null;
    try {
      // Calendar files (docs/calendars.md) are the one answer that is not JSON: passed on as text.
      data = response.ok && answer.contentType?.startsWith("text/calendar") ? answer.text : answer.text ? JSON.parse(answer.text) : null;
    } catch {
      data = null;
    }
    if (response.ok) return { ok: true, status: response.status, data: data as T };
    if (response.status === 401 && options.token && !keepsSessionOn401.some((p) => path.includes(p))) {
      // The session is over: log in again, and come back to the page asked for.
      const page = options.context?.get(pageContext);
      throw await logoutRedirect(request, page ? loginPath(page) : "/login");
    }
    const fields: Record<string, unknown> = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
    return {
      ok: false,
      status: response.status,
      code: typeof fields.code === "string" ? fields.code : undefined,
      body: fields,
    };
  }

  /**
   * Like `call`, but an error answer is thrown as a response with its status, for the error
   * boundary: the API's 4xx as they are (404 for what is unknown or someone else's), and a broken,
   * unreachable or hanging upstream as 503 (docs/errors.md).
   */
  async function get<T>(path: string, query?: Query): Promise<T> {
    const result = await call<T>("GET", path, { query });
    if (!result.ok) throw data({ code: result.code }, { status: result.status >= 500 ? 503 : result.status });
    return result.data;
  }

  return { call, get };
}

export type Upstream = ReturnType<typeof createUpstream>;

/** A call to an API elsewhere (API_URL, or the process owning the embedded database). */
async function overHttp(method: string, url: URL, headers: Record<string, string>, body: string | undefined, remaining: number): Promise<InProcessAnswer> {
  const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(remaining) });
  // The body may stall after the headers: it is read within the same budget.
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type") ?? undefined, text };
}

/** The answer of an in-process call, or a TimeoutError once the page's budget is spent, as fetch's signal gives. */
function withinBudget<T>(answer: Promise<T>, remaining: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException("The API did not answer in time", "TimeoutError")), remaining);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}
