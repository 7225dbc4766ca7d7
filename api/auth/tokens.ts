// Opaque bearer tokens: 32 random bytes, only their SHA-256 is stored.
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { apiTokens } from "../db/schema.ts";
import { hashToken, TOKEN_ABSOLUTE_MS } from "../http.ts";
import { forgetTokenChecks } from "./page-scope.ts";

export async function issueToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(apiTokens).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_ABSOLUTE_MS),
  });
  return token;
}

export async function revokeToken(db: Db, token: string) {
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)));
  forgetTokenChecks({ tokenHash: hashToken(token) });
}

export async function revokeAllTokens(db: Db, userId: string) {
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  forgetTokenChecks({ userId });
}
