// The API's edge: one error type that becomes {message} with the right status, zod validation,
// bearer-token authentication and role checks.
import { createHash } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./db/index.ts";
import { apiTokens, users } from "./db/schema.ts";

export class ApiError extends Error {
  status: number;
  /** A stable machine-readable code the web app may translate (e.g. "slot_taken"). */
  code?: string;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const badRequest = (message: string, code?: string) => new ApiError(400, message, code);
export const unauthorized = (message = "Unauthorized access") => new ApiError(401, message, "unauthorized");
export const forbidden = (message = "Unauthorized access", code = "forbidden") => new ApiError(403, message, code);
export const notFound = (message = "Not found") => new ApiError(404, message, "not_found");
export const conflict = (message: string, code?: string) => new ApiError(409, message, code);
export const tooMany = (message: string, code = "rate_limited") => new ApiError(429, message, code);

/** Parses input with a zod schema; the first issue's message becomes the 400 answer. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(issue?.message ?? "Invalid request", "invalid");
  }
  return result.data;
}

export function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction) {
  if (err instanceof ApiError) {
    res.status(err.status).json({ message: err.message, code: err.code });
    return;
  }
  if (err && typeof err === "object" && "type" in err && (err as { type: string }).type === "entity.parse.failed") {
    res.status(400).json({ message: "Invalid JSON", code: "invalid" });
    return;
  }
  console.error("[api] unexpected error", err instanceof Error ? err.stack : err);
  res.status(500).json({ message: "Something went wrong", code: "internal" });
}

export type Role = "patient" | "doctor" | "admin";
export interface AuthUser {
  id: string;
  role: Role;
  username: string;
  email: string;
  locale: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: AuthUser;
    }
  }
}

export const TOKEN_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const TOKEN_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Resolves the bearer token to a live user; 401 when missing, unknown, revoked or expired. */
export function authenticate(db: Db, ...roles: Role[]): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
    if (!token) throw unauthorized();
    const now = new Date();
    const idleCutoff = new Date(now.getTime() - TOKEN_IDLE_MS);
    const [row] = await db
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
          eq(apiTokens.tokenHash, hashToken(token)),
          isNull(apiTokens.revokedAt),
          gt(apiTokens.expiresAt, now),
          gt(apiTokens.lastUsedAt, idleCutoff),
          isNull(users.deletedAt),
        ),
      )
      .limit(1);
    if (!row) throw unauthorized();
    if (roles.length && !roles.includes(row.role)) throw forbidden();
    // Touch at most once a minute: keeps idle expiry honest without a write per request.
    if (now.getTime() - row.lastUsedAt.getTime() > 60_000) {
      await db.update(apiTokens).set({ lastUsedAt: sql`now()` }).where(eq(apiTokens.id, row.tokenId));
    }
    req.user = { id: row.id, role: row.role, username: row.username, email: row.email, locale: row.locale };
    next();
  };
}

/** The authenticated user; only call behind `authenticate`. */
export function currentUser(req: Request): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}
