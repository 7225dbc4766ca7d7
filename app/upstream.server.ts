// The one module that talks to the upstream API (docs/product.md, The API): JSON, bearer token from the
// session, a timeout, the caller's language and address, and the 401 rule (docs/architecture.md, The session).
// How a call travels (in-process or over HTTP) is server.ts's choice, given in the context
// (servicesContext, contract/api-transport.ts).
import { createContext, data, type RouterContextProvider } from "react-router";
import { loadConfig } from "../config.ts";
import { pageContext, servicesContext } from "./context.ts";
import { loginPath, logoutRedirect } from "./session.server.ts";
import { PAGE_SCOPE_HEADER, type ApiAnswer } from "../contract/api-transport.ts";

const config = loadConfig();

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

// One time budget per page request (its context), shared by all its upstream calls (an action and
// the loaders that follow it included): a hanging upstream costs the user API_TIMEOUT_MS once, not
// once per call.
const deadlines = new WeakMap<object, number>();
const unreachable = (): UpstreamResult<never> => ({ ok: false, status: 503, code: "network", body: {} });

/** Built by auth.server.ts's `upstream`, the one way routes get a client. */
export function createUpstream(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: { token?: string; pageScope?: string; language?: string } = {},
) {
  const services = context.get(servicesContext);
  async function call<T>(method: string, path: string, call: CallOptions = {}): Promise<UpstreamResult<T>> {
    if (method !== "GET" || call.query || !REFERENCE_PATH.test(path)) return send<T>(method, path, call);
    const cached = referenceCache.get(path);
    if (cached && cached.until > Date.now()) return cached.result as UpstreamResult<T>;
    const result = await send<T>(method, path, call);
    if (result.ok) referenceCache.set(path, { until: Date.now() + REFERENCE_TTL_MS, result });
    return result;
  }

  async function send<T>(method: string, path: string, call: CallOptions): Promise<UpstreamResult<T>> {
    // Parsed as fetch parses it (dot segments, encoding), so that both transports send the same path.
    const url = new URL(path, "http://api.invalid");
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
    const info = context.get(requestInfoContext);
    if (info?.ip) headers["x-forwarded-for"] = info.ip;
    if (info?.requestId) headers["x-request-id"] = info.requestId;
    const deadline = deadlines.get(context) ?? Date.now() + config.API_TIMEOUT_MS;
    deadlines.set(context, deadline);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      services.observeApiCall(method, path, 0, "timeout");
      return unreachable();
    }
    let answer: ApiAnswer;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    try {
      answer = await services.callApi({ method, url: url.pathname + url.search, headers, body }, remaining);
    } catch (error) {
      services.observeApiCall(
        method,
        path,
        seconds(),
        (error as Error).name === "TimeoutError" ? "timeout" : "network",
      );
      return unreachable();
    }
    const response = { status: answer.status, ok: answer.status >= 200 && answer.status < 300 };
    services.observeApiCall(method, path, seconds(), response.status);
    let data: unknown = null;
    try {
      // Calendar files (docs/calendars.md) are the one answer that is not JSON: passed on as text.
      data =
        response.ok && answer.contentType?.startsWith("text/calendar")
          ? answer.text
          : answer.text
            ? JSON.parse(answer.text)
            : null;
    } catch {
      data = null;
    }
    if (response.ok) return { ok: true, status: response.status, data: data as T };
    if (response.status === 401 && options.token && !keepsSessionOn401.some((p) => path.includes(p))) {
      // The session is over: log in again, and come back to the page asked for.
      const page = context.get(pageContext);
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
