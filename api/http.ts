// The API's edge: one error type that becomes {message} with the right status, zod validation,
// bearer-token authentication and role checks.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import client from "prom-client";
import type { z } from "zod";
import type { Role } from "../contract/constants.ts";
import { check } from "../contract/fields.ts";
import type { Db } from "./db/index.ts";
import { apiTokens, users } from "./db/schema.ts";
import { checkTokenOnce } from "./auth/page-scope.ts";
import { PAGE_SCOPE_HEADER } from "../contract/api-transport.ts";
import { prepared } from "./db/prepared.ts";
import { closeAfterAnswer } from "../http/lingering-close.ts";

export class ApiError extends Error {
  status: number;
  /** A stable machine-readable code the web app may translate (e.g. "slot_taken"). */
  code?: string;
  /** More the answer carries beside {message, code} (a 409's conflicting appointments, say). */
  extra?: Record<string, unknown>;
  constructor(status: number, message: string, code?: string, extra?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const badRequest = (message: string, code?: string) => new ApiError(400, message, code);
const unauthorized = (message = "Unauthorized access") => new ApiError(401, message, "unauthorized");
export const forbidden = (message = "Unauthorized access", code = "forbidden") => new ApiError(403, message, code);
export const notFound = (message = "Not found") => new ApiError(404, message, "not_found");
export const conflict = (message: string, code?: string) => new ApiError(409, message, code);
export const tooMany = (message: string, code = "rate_limited") => new ApiError(429, message, code);

/**
 * The edge check of every request body and query against its contract schema (contract/): the
 * first refused field becomes the 400 answer, with that field's code.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = check(schema, input);
  if (!result.ok) throw badRequest(result.message, result.code);
  return result.data;
}

/** The largest request body any route accepts (64 kB): far above every form of this product. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * What the body parser and the router say about a malformed request (http-errors carry a 4xx
 * `status` and a `type`), in words a client can act on. See docs/errors.md.
 */
const clientMistakes: Record<string, [number, string]> = {
  "entity.too.large": [413, "Request body too large"],
  "entity.parse.failed": [400, "Invalid JSON"],
  "encoding.unsupported": [415, "Unsupported content encoding"],
  "charset.unsupported": [415, "Unsupported charset"],
  "entity.verify.failed": [400, "Invalid request body"],
  "request.aborted": [400, "Request aborted"],
  "request.size.invalid": [400, "Request body size does not match its length"],
};

/** The status and message of an error that is the client's mistake, or undefined for a fault of ours. */
export function clientMistake(err: unknown): { status: number; message: string } | undefined {
  if (!err || typeof err !== "object") return undefined;
  const { status, statusCode, type } = err as { status?: unknown; statusCode?: unknown; type?: unknown };
  const known = typeof type === "string" ? clientMistakes[type] : undefined;
  if (known) return { status: known[0], message: known[1] };
  const code = typeof status === "number" ? status : typeof statusCode === "number" ? statusCode : 0;
  if (code >= 400 && code < 500) return { status: code, message: code === 404 ? "Not found" : "Bad request" };
  return undefined;
}

export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction) {
  const mistake = err instanceof ApiError ? { status: err.status, message: err.message } : clientMistake(err);
  if (!mistake) {
    console.error("[api] unexpected error", err instanceof Error ? err.stack : err);
    res.status(500).json({ message: "Something went wrong", code: "internal" });
    return;
  }
  // A client's mistake is an answer, not an incident: the request's own log line (logging.ts) says
  // its status, and nothing more is logged, never a stack trace.
  const code = err instanceof ApiError ? err.code : edgeCode(mistake.status);
  const extra = err instanceof ApiError ? err.extra : undefined;
  afterUnreadBody(req, res, () => res.status(mistake.status).json({ ...extra, message: mistake.message, code }));
}

/**
 * Answers once the unread rest of a refused body is dealt with. Up to 1 MB is read and thrown away
 * first, so that a client still sending it reliably reads the answer; a larger one is not read at
 * all: the answer goes at once and the connection closes without losing it (closeAfterAnswer).
 * Memory stays flat either way.
 */
function afterUnreadBody(req: IncomingMessage, res: ServerResponse, answer: () => void) {
  if (req.complete || req.readableEnded) return answer();
  if (!(Number(req.headers["content-length"]) <= 1024 * 1024)) {
    closeAfterAnswer(res);
    return answer();
  }
  req.once("end", answer);
  req.resume();
}

const edgeCode = (status: number) =>
  status === 413
    ? "too_large"
    : status === 415
      ? "unsupported_media_type"
      : status === 404
        ? "not_found"
        : "invalid_request";

const hasBody = (req: Request) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

/**
 * The API's own checks before any route: bodies are JSON of at most BODY_LIMIT_BYTES, announced
 * too-big bodies are refused before a byte is read, no body nests deeper than MAX_BODY_DEPTH, and
 * no text carries a NUL (PostgreSQL refuses it). The depth is refused here, before any route, key
 * or not: what comes after (the idempotency key's fingerprint, zod) walks the body recursively,
 * and 5,000 nested arrays overflowed the stack there. Every answer is personal or cheap to repeat,
 * so none is stored by a cache (docs/errors.md).
 */
export function requestGuards(): RequestHandler[] {
  return [
    (req, res, next) => {
      res.set("Cache-Control", "private, no-store");
      if (!hasBody(req)) return next();
      if (Number(req.headers["content-length"] ?? 0) > BODY_LIMIT_BYTES)
        throw new ApiError(413, "Request body too large", edgeCode(413));
      if (!req.is("application/json")) throw new ApiError(415, "Content-Type must be application/json", edgeCode(415));
      next();
    },
    // No inflation: nothing the web tier sends is compressed, and an inflated body escapes the limit.
    express.json({ limit: BODY_LIMIT_BYTES, inflate: false, strict: true }),
    (req, _res, next) => {
      const fault = req.path.includes("\0") ? "nul" : (faultIn(req.body) ?? faultIn(req.query));
      if (fault === "deep")
        throw badRequest(`Request body nested deeper than ${MAX_BODY_DEPTH} levels`, "invalid_request");
      if (fault === "nul") throw badRequest("Text may not contain NUL characters", "invalid_request");
      next();
    },
  ];
}

/** How deep objects and arrays may nest in a body: every contract body nests two or three levels. */
const MAX_BODY_DEPTH = 20;

/** A NUL in a text or a key, or nesting past MAX_BODY_DEPTH (the walk goes no deeper). */
function faultIn(value: unknown, depth = 0): "nul" | "deep" | undefined {
  if (typeof value === "string") return value.includes("\0") ? "nul" : undefined;
  if (!value || typeof value !== "object") return undefined;
  if (depth === MAX_BODY_DEPTH) return "deep";
  for (const [key, item] of Object.entries(value)) {
    const fault = key.includes("\0") ? "nul" : faultIn(item, depth + 1);
    if (fault) return fault;
  }
  return undefined;
}

export interface AuthUser {
  id: string;
  role: Role;
  username: string;
  /** Null for a patient who signs in with their phone. */
  email: string | null;
  locale: string;
}

declare global {
  // Express types requests in its global namespace: this adds the user that authenticate() sets.
  namespace Express {
    interface Request {
      user?: AuthUser;
    }
  }
}

const TOKEN_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const TOKEN_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Bearer-token lookups in the database (one per page when the API runs in the web tier's process). */
export const tokenChecks = new client.Counter({
  name: "api_token_checks_total",
  help: "Bearer tokens looked up in the database",
});

/**
 * The live token's user: the statement every signed-in page runs first, prepared once
 * (api/db/prepared.ts). Each value is a placeholder, so one prepared statement serves every token.
 */
// Placeholders take no column's encoder: the instants are given as ISO strings.
const liveToken = prepared("live_token", (db) =>
  db
    .select({
      tokenId: apiTokens.id,
      lastUsedAt: apiTokens.lastUsedAt,
      id: users.id,
      role: users.role,
      username: users.username,
      email: users.email,
      locale: users.locale,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, sql.placeholder("tokenHash")),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.expiresAt, sql.placeholder("now")),
        gt(apiTokens.lastUsedAt, sql.placeholder("idleCutoff")),
        isNull(users.deletedAt),
        isNull(users.deactivatedAt),
      ),
    )
    .limit(1),
);

/** The live token's user, looked up in the database. */
async function lookUpToken(db: Db, tokenHash: string): Promise<AuthUser | undefined> {
  tokenChecks.inc();
  const now = new Date();
  const idleCutoff = new Date(now.getTime() - TOKEN_IDLE_MS);
  const [row] = await liveToken(db, { tokenHash, now: now.toISOString(), idleCutoff: idleCutoff.toISOString() });
  if (!row) return undefined;
  // Touch at most once a minute: keeps idle expiry honest without a write per request.
  if (now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, row.tokenId));
  }
  return { id: row.id, role: row.role, username: row.username, email: row.email, locale: row.locale };
}

/**
 * Resolves the bearer token to a live user; 401 when missing, unknown, revoked or expired. The
 * calls of one page share one lookup (api/auth/page-scope.ts).
 */
export function authenticate(db: Db, ...roles: Role[]): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
    if (!token) throw unauthorized();
    const tokenHash = hashToken(token);
    const found = await checkTokenOnce(req.get(PAGE_SCOPE_HEADER), tokenHash, () => lookUpToken(db, tokenHash));
    if (!found) throw unauthorized();
    if (roles.length && !roles.includes(found.role)) throw forbidden();
    req.user = { ...found };
    next();
  };
}

/** The authenticated user; only call behind `authenticate`. */
export function currentUser(req: Request): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}
