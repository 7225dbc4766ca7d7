// Prometheus metrics (docs/operations.md): request latency by route, upstream call latency and
// errors, the database pool, and the process's own (CPU, memory, event loop); the mail outbox's
// are in mail/outbox-metrics.ts. Every process (web server, API alone) keeps its own and serves
// them at /metrics, behind a bearer token: without METRICS_TOKEN the endpoint does not exist.
// The metrics live in prom-client's default registry. This module is loaded once per process: the
// web app reports its calls to the API through the hook server.ts hands it (observeUpstream).
import { timingSafeEqual, createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import client from "prom-client";
import type { Database } from "./db/index.ts";
import { routeOf } from "./logging.ts";

const register = client.register;

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer a request, by route",
  labelNames: ["method", "route", "status"],
  buckets,
});
const upstreamDuration = new client.Histogram({
  name: "upstream_request_duration_seconds",
  help: "Time of the web tier's calls to its API, by route",
  labelNames: ["method", "route", "status"],
  buckets,
});
const upstreamErrors = new client.Counter({
  name: "upstream_errors_total",
  help: "The web tier's calls to its API that got no answer (network, timeout) or a 5xx",
  labelNames: ["method", "route", "reason"],
});

/**
 * The route label: the path with ids replaced (see routeOf); "unmatched" for a 404, so that
 * scanners trying random paths cannot grow the number of series without bound.
 */
function routeLabel(url: string, status: number) {
  return status === 404 ? "unmatched" : routeOf(url);
}

/** Times every request into http_request_duration_seconds. */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = httpDuration.startTimer();
    res.once("finish", () => {
      end({ method: req.method, route: routeLabel(req.originalUrl, res.statusCode), status: String(res.statusCode) });
    });
    next();
  };
}

/** One upstream call, timed; `outcome` is the status, or why there was none. */
export function observeUpstream(
  method: string,
  path: string,
  seconds: number,
  outcome: number | "network" | "timeout",
) {
  const route = typeof outcome === "number" ? routeLabel(path, outcome) : routeOf(path);
  upstreamDuration.observe({ method, route, status: String(outcome) }, seconds);
  if (typeof outcome !== "number") upstreamErrors.inc({ method, route, reason: outcome });
  else if (outcome >= 500) upstreamErrors.inc({ method, route, reason: "status_5xx" });
}

/** The PostgreSQL pool's connections (total, idle, waiting clients), read at every scrape. */
export function watchDatabasePool(database: Database) {
  // drizzle's node-postgres database keeps its pg.Pool as $client; PGlite has no pool.
  const pool =
    database.kind === "postgres"
      ? (database.db as unknown as { $client: { totalCount: number; idleCount: number; waitingCount: number } }).$client
      : undefined;
  if (!pool) return;
  register.removeSingleMetric("db_pool_connections");
  new client.Gauge({
    name: "db_pool_connections",
    help: "PostgreSQL pool: open connections (total), idle ones, and queries waiting for one",
    labelNames: ["state"],
    collect() {
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
}

let defaultsCollected = false;

/**
 * GET /metrics for a scraper that sends `Authorization: Bearer <token>`; anyone else goes on to
 * the app's own 404, as if it did not exist (and so does everyone when no token is configured).
 */
export function metricsEndpoint(options: { token?: string; service: string }) {
  if (!defaultsCollected) {
    register.setDefaultLabels({ service: options.service });
    client.collectDefaultMetrics();
    defaultsCollected = true;
  }
  const expected = options.token ? digest(options.token) : undefined;
  return async (req: Request, res: Response, next: NextFunction) => {
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    // Compared as digests so the comparison takes the same time whatever the length given.
    if (!expected || !given || !timingSafeEqual(digest(given), expected)) return next();
    res.set("Content-Type", register.contentType);
    res.set("Cache-Control", "no-store");
    res.send(await register.metrics());
  };
}

function digest(value: string) {
  return createHash("sha256").update(value).digest();
}
