// Several web workers (WEB_CONCURRENCY, README "Several web workers"): server.ts's first process
// becomes the primary of a node:cluster and forks the workers, which share the listening port.
//
// - With PostgreSQL (DATABASE_URL), each worker is a whole web server (with its embedded API and its
//   own connection pool): they share nothing but the database. With a remote API (API_URL), each
//   worker calls it over HTTP.
// - With the embedded database, the primary is its one owner (docs/decisions/0020): it opens
//   PGlite, runs the API, the mail outbox and the CLI's control socket, and serves the API on a
//   loopback port; each worker is a web server with API_OWNER_URL pointing there, whose pages call
//   it over HTTP and whose public /api is forwarded to it. HTTP is the one way between processes.
import cluster, { type Worker } from "node:cluster";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./config.ts";
import { openApi } from "./api/serve.ts";

/** Runs the primary: forks `config.webConcurrency` workers and keeps them running until SIGTERM/SIGINT. */
export async function superviseWebWorkers(config: Config): Promise<never> {
  let ownerUrl: string | undefined;
  let closeOwner = async () => {};
  if (!config.API_URL && !config.DATABASE_URL) {
    const { database, api } = await openApi(config);
    const server = createServer(api);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    ownerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.requestTimeout = 30_000;
    closeOwner = async () => {
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    };
    console.log(
      `The embedded database is owned by this process (${process.pid}); its API answers the web workers at ${ownerUrl}`,
    );
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
      "Demo accounts (password Demo1234!): patient@example.com, doctor@example.com, pending.doctor@example.com, admin@example.com, reception@example.com",
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
