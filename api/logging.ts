// Structured logs (docs/operations.md): one JSON line per line of output, on stdout, for the web
// server and the API alone. Each request gives one line (method, route, status, duration, request
// id); the request id comes from the X-Request-Id header when a proxy or the web tier sent one, so
// the web tier's line and the API's line of one page load share it.
//
// What a line never holds: a query string (reset links carry tokens), a header (cookies, bearer
// tokens), a body (passwords, codes, personal data), a path segment with digits (ids; codes would
// be digits too). Other log calls pass objects through `redact`, which blanks those fields wherever
// they appear.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

export type LogLevel = LevelWithSilent;

// Field names that hold a secret or a patient's personal data, at the top or one level down.
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "code",
  "otp",
  "token",
  "refreshToken",
  "authorization",
  "cookie",
  "secret",
  "email",
  "phone",
  "contact",
  "name",
  "username",
  "firstName",
  "lastName",
  "address",
  "birthDate",
];
const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
];

export function createLogger(options: { level: LogLevel; service: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      level: options.level,
      // The pid tells apart the lines of several web workers (WEB_CONCURRENCY, server-cluster.ts).
      base: { service: options.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

// Accepted from the caller only in a shape that cannot smuggle anything into a log line.
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;
const REQUEST_ID_HEADER = "x-request-id";

/**
 * The path as a route: the query dropped, and every segment that holds a digit, an "@" or more
 * than 32 characters (ids, e-mail addresses, tokens) replaced by ":param". Bounded for metrics
 * labels, and free of personal data for logs.
 */
export function routeOf(url: string): string {
  const path = url.split(/[?#]/, 1)[0] || "/";
  return path
    .split("/")
    .map((segment) => (/[0-9@]/.test(segment) || segment.length > 32 ? ":param" : segment))
    .join("/");
}

declare module "node:http" {
  interface IncomingMessage {
    /** The request's id (X-Request-Id), set by `requestLogging`. */
    id?: string;
  }
}

/**
 * The request-logging middleware: one line per request when the answer is sent or the client leaves.
 * Written by hand rather than with pino-http, which made two child loggers per request (one of them
 * serializing the whole request, for nobody: no code logs through it) and passed each line through
 * the redaction of every secret field name (bench/README.md: about 0.1 ms a request). A request's
 * line holds only the fields `line` builds (method, route, status, duration, request id), none of
 * which can carry a secret, so it is written by a logger without redaction; every other log call
 * keeps it.
 */
export function requestLogging(logger: Logger) {
  // pino needs a path to build a redactor; one no object has turns redaction off for these lines.
  const requests = logger.child({}, { redact: { paths: ["__no_field__"] } });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const started = Date.now();
    const given = req.headers[REQUEST_ID_HEADER];
    const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader("X-Request-Id", id);
    const done = (error?: Error) => {
      res.off("close", done);
      res.off("finish", done);
      res.off("error", done);
      const entry = { requestId: id, ...line(req, res, Date.now() - started) };
      // The error's type only: messages can quote a query's values.
      if (error || res.statusCode >= 500) requests.error({ ...entry, error: error?.name ?? "Error" }, "request failed");
      else requests.info(entry, "request");
    };
    res.on("close", done);
    res.on("finish", done);
    res.on("error", done);
    next();
  };
}

function line(req: IncomingMessage, res: ServerResponse, duration: number) {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "/";
  return {
    method: req.method,
    route: routeOf(url),
    status: res.writableFinished ? res.statusCode : 499,
    durationMs: duration,
  };
}
