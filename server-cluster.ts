// Several web workers (WEB_CONCURRENCY, README "Several web workers"): server.ts's first process
// becomes the primary of a node:cluster and forks the workers, which share the listening port.
//
// - With PostgreSQL (DATABASE_URL) or a remote API (API_URL), each worker is a whole web server
//   (with its embedded API and its own connection pool): they share nothing but the database.
// - With the embedded database, the primary is its one owner (docs/decisions/0006): it opens
//   PGlite, runs the API, the mail outbox and the CLI's control socket, and answers the workers on
//   a loopback port; each worker is a web server with API_OWNER_URL pointing there, and forwards
//   the public /api to it. The workers' pages call the owner's API over the cluster's message
//   channel instead (ownerCaller below): no fetch, no loopback socket, no HTTP parsing on either side.
import cluster, { type Worker } from "node:cluster";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./config.ts";
import { openApi } from "./api/serve.ts";
import type { Logger } from "pino";
import {
  inProcessApi,
  inProcessCallsSettled,
  serveInProcess,
  serveThrough,
  stopServingInProcess,
  type InProcessAnswer,
  type InProcessRequest,
} from "./api/in-process.ts";
import { adoptPageScope, dropPageScope, isPageScopeOpen, PAGE_SCOPE_HEADER, shareScopesWithOwner } from "./api/auth/page-scope.ts";

/** Runs the primary: forks `config.webConcurrency` workers and keeps them running until SIGTERM/SIGINT. */
export async function superviseWebWorkers(config: Config): Promise<never> {
  let ownerUrl: string | undefined;
  let closeOwner = async () => {};
  if (!config.API_URL && !config.DATABASE_URL) {
    const { database, api } = await openApi(config);
    // The workers' pages call this API in-process here, by message (answerWorkerCall).
    serveInProcess(api);
    const call = inProcessApi();
    // The page scopes each worker's calls brought (one token check per page, api/auth/page-scope.ts).
    const scopesOf = new Map<number, Set<string>>();
    cluster.on("message", (worker: Worker, message: unknown) => {
      let scopes = scopesOf.get(worker.id);
      if (!scopes) scopesOf.set(worker.id, (scopes = new Set()));
      void answerWorkerCall(call, message, scopes)?.then((answer) => {
        if (worker.isConnected()) worker.send(answer, () => {}); // a worker gone meanwhile wants no answer
      });
    });
    cluster.on("exit", (worker: Worker) => {
      closeWorkerScopes(scopesOf.get(worker.id) ?? new Set());
      scopesOf.delete(worker.id);
    });
    const server = createServer(api);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    ownerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.requestTimeout = 30_000;
    closeOwner = async () => {
      await new Promise((resolve) => server.close(resolve));
      await inProcessCallsSettled(5_000);
      await database.close();
    };
    console.log(`The embedded database is owned by this process (${process.pid}); its API answers the web workers at ${ownerUrl}`);
  }
  const env = ownerUrl ? { API_OWNER_URL: ownerUrl } : {};
  let stopping = false;
  const startedAt = new Map<number, number>();
  const restarts = restartPolicy();
  const fork = () => {
    const worker = cluster.fork(env);
    startedAt.set(worker.id, Date.now());
  };
  cluster.on("exit", (worker: Worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    const delay = restarts.delayAfterExit(lived);
    console.error(`web worker ${worker.process.pid} exited (${signal ?? code}); starting another in ${delay / 1000} s`);
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });
  for (let i = 0; i < config.webConcurrency; i++) fork();
  console.log(`${config.webConcurrency} web workers on port ${config.PORT}`);
  if (config.demo && !config.API_URL) {
    console.log(
      "Demo accounts (password Demo1234!): patient@example.com, doctor@example.com, pending.doctor@example.com, admin@example.com",
    );
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping the web workers`);
      // Each worker drains its requests (api/serve.ts, shutDownGracefully) before the database closes.
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once("exit", () => resolve());
              worker.process.kill("SIGTERM");
            }),
        ),
      );
      await closeOwner();
      process.exit(0);
    });
  }
  // The primary serves nothing itself: it lives until a signal ends it (above).
  return new Promise<never>(() => {});
}

/**
 * When to start a worker again after one exits. A worker that ran a while (a crash after hours of
 * service) is replaced at once; a worker that dies soon after it started is likely to die again
 * (a bad setting, a database that refuses connections), so each such exit in a row doubles the
 * wait, from 1 s up to 30 s, instead of forking in a tight loop that floods the log and the CPU.
 */
export function restartPolicy({ healthyAfterMs = 30_000, firstDelayMs = 1_000, maxDelayMs = 30_000 } = {}) {
  let quickExits = 0;
  return {
    delayAfterExit(livedMs: number): number {
      if (livedMs >= healthyAfterMs) {
        quickExits = 0;
        return 0;
      }
      quickExits++;
      return Math.min(maxDelayMs, firstDelayMs * 2 ** (quickExits - 1));
    },
  };
}

/**
 * A worker's /api: the public embedded API, forwarded to the owner as it arrives. The client's
 * address (as this worker's TRUST_PROXY resolved it) is the only X-Forwarded-For entry the owner,
 * which trusts its loopback peer, reads.
 */
export function forwardToOwner(ownerUrl: string) {
  const owner = new URL(ownerUrl);
  return (req: IncomingMessage & { ip?: string }, res: ServerResponse, next: (error?: unknown) => void) => {
    const headers = { ...req.headers, "x-forwarded-for": req.ip ?? req.socket.remoteAddress ?? "" };
    const forwarded = httpRequest(
      { hostname: owner.hostname, port: owner.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", (error) => (res.headersSent ? res.destroy(error) : next(error)));
    req.pipe(forwarded);
  };
}

const CALL = "api-owner-call";
const ANSWER = "api-owner-answer";
const CLOSE_SCOPE = "api-owner-close-scope";

interface CallMessage {
  type: typeof CALL;
  id: number;
  request: InProcessRequest;
}
type AnswerMessage = { type: typeof ANSWER; id: number } & ({ answer: InProcessAnswer } | { failed: true });
interface CloseScopeMessage {
  type: typeof CLOSE_SCOPE;
  key: string;
}

/**
 * What the owner sends back for a worker's message, when it is a call to the API (undefined
 * otherwise). `scopes` holds the page scopes this worker's calls brought: a call's key is taken as
 * a scope of the owner's API, so the page's calls share one token check, until the worker's
 * close-scope message (which gets no answer).
 */
export function answerWorkerCall(
  call: ((request: InProcessRequest) => Promise<InProcessAnswer>) | undefined,
  message: unknown,
  scopes?: Set<string>,
): Promise<AnswerMessage> | undefined {
  const closing = message as Partial<CloseScopeMessage> | null;
  if (closing?.type === CLOSE_SCOPE) {
    if (typeof closing.key === "string" && scopes?.delete(closing.key)) dropPageScope(closing.key);
    return undefined;
  }
  const asked = message as Partial<CallMessage> | null;
  if (!call || asked?.type !== CALL || typeof asked.id !== "number" || !asked.request) return undefined;
  const id = asked.id;
  const key = asked.request.headers?.[PAGE_SCOPE_HEADER];
  // Taken only where the worker's scopes are kept, so that they are dropped when it is gone.
  if (scopes && typeof key === "string" && adoptPageScope(key)) scopes.add(key);
  // A failure is told as such, without its details: the page answers it as an API out of reach.
  return call(asked.request).then(
    (answer): AnswerMessage => ({ type: ANSWER, id, answer }),
    (): AnswerMessage => ({ type: ANSWER, id, failed: true }),
  );
}

/** A worker gone: the owner drops the page scopes its calls brought and it never closed. */
export function closeWorkerScopes(scopes: Set<string>) {
  for (const key of scopes) dropPageScope(key);
  scopes.clear();
}

/** A process's message channel: a cluster worker's `process`, or a test's stand-in. */
export interface MessageChannel {
  send(message: unknown, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  on(event: "disconnect", listener: () => void): unknown;
}

/**
 * A worker's way to call the owner's API: each call is a message to the owner, which hands it to
 * its API in-process and sends back the answer. Over the loopback, a page's two calls cost a fetch
 * in the worker and an HTTP request in the owner (bench/README.md).
 */
export function ownerCaller(channel: MessageChannel, timeoutMs: number) {
  let last = 0;
  const waiting = new Map<number, { resolve: (answer: InProcessAnswer) => void; reject: (error: Error) => void }>();
  channel.on("message", (message) => {
    const answered = message as Partial<AnswerMessage> | null;
    if (answered?.type !== ANSWER || typeof answered.id !== "number") return;
    const caller = waiting.get(answered.id);
    waiting.delete(answered.id);
    if (!caller) return;
    if ("answer" in answered && answered.answer) caller.resolve(answered.answer);
    else caller.reject(new Error("the API failed to answer"));
  });
  // The owner gone, no answer will come: the pages waiting answer as for an API out of reach.
  channel.on("disconnect", () => {
    for (const caller of waiting.values()) caller.reject(new Error("the process owning the database is gone"));
    waiting.clear();
  });
  // A call the owner never answers (a stuck database) is given up after `timeoutMs`, as a fetch
  // would be: nothing waits on it forever, and a shutdown does not wait for it.
  return (request: InProcessRequest) =>
    new Promise<InProcessAnswer>((resolve, reject) => {
      const id = ++last;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new DOMException("the process owning the database did not answer in time", "TimeoutError"));
      }, timeoutMs);
      timer.unref();
      const settled = <T>(settle: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        settle(value);
      };
      waiting.set(id, { resolve: settled(resolve), reject: settled(reject) });
      // A scope already closed (a call made while the page's answer streams) is not sent: the
      // owner would take it as a scope again, and nothing would close it.
      const message: CallMessage = { type: CALL, id, request: withOpenScopeOnly(request) };
      channel.send(message, (error) => {
        if (!error) return;
        waiting.delete(id);
        clearTimeout(timer);
        reject(error);
      });
    });
}

function withOpenScopeOnly(request: InProcessRequest): InProcessRequest {
  const key = request.headers[PAGE_SCOPE_HEADER];
  if (key === undefined || isPageScopeOpen(key)) return request;
  const { [PAGE_SCOPE_HEADER]: _closed, ...headers } = request.headers;
  return { ...request, headers };
}

/**
 * A web worker of the process owning the embedded database (server.ts): its pages call the owner's
 * API by message, and share one token check per page there. Returns what undoes it (tests).
 */
export function callOwnerByMessage(channel: MessageChannel, timeoutMs: number, logger?: Logger) {
  serveThrough(ownerCaller(channel, timeoutMs), logger);
  const stopSharing = shareScopesWithOwner(ownerScopeCloser(channel));
  return () => {
    stopSharing();
    stopServingInProcess();
  };
}

/** How a worker tells the owner that a page's scope ended (api/auth/page-scope.ts, shareScopesWithOwner). */
function ownerScopeCloser(channel: MessageChannel) {
  return (key: string) => {
    const message: CloseScopeMessage = { type: CLOSE_SCOPE, key };
    // A channel already closed: the owner drops the worker's scopes when it sees the worker exit.
    channel.send(message, () => {});
  };
}
