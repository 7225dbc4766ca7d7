// What the web server and the API alone put in front of everything else: /metrics (behind its
// token), then one log line and one latency sample per request (docs/operations.md).
import type { Express } from "express";
import type { DestinationStream, Logger } from "pino";
import { createLogger, requestLogging, type LogLevel } from "./logging.ts";
import { httpMetrics, metricsEndpoint } from "./metrics.ts";

// Probes and scrapes come every few seconds from the orchestrator: logging them would bury the
// requests of people.
const QUIET = new Set(["/healthz", "/readyz", "/metrics"]);

export function observe(
  app: Express,
  options: { service: string; logLevel: LogLevel; metricsToken?: string; destination?: DestinationStream },
): Logger {
  const logger = createLogger({ level: options.logLevel, service: options.service }, options.destination);
  app.get("/metrics", metricsEndpoint({ token: options.metricsToken, service: options.service }));
  const logRequest = requestLogging(logger);
  app.use((req, res, next) => (QUIET.has(req.path) ? next() : logRequest(req, res, next)));
  app.use(httpMetrics());
  return logger;
}
