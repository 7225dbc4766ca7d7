// Private calendar feeds (docs/calendars.md): one live secret URL per user, of which only the
// SHA-256 is stored, like the API's bearer tokens. Renewing replaces it; revoking ends it. Old
// rows stay (revoked), so a calendar that keeps polling a dead URL is not taken for a guesser.
import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { calendarFeeds, users } from "../db/schema.ts";
import { hashToken } from "../http.ts";
import type { FeedStatusAnswer, RenewedFeed } from "../../contract/calendar.ts";
import type { Role } from "../../contract/constants.ts";

/** 32 random bytes, base64url: 43 characters. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function feedStatus(db: Db, userId: string): Promise<FeedStatusAnswer> {
  const [live] = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.userId, userId), isNull(calendarFeeds.revokedAt)));
  return { active: Boolean(live), createdAt: live?.createdAt.toISOString() ?? null };
}

/** A new secret for the user's feed; the previous one, if any, stops working. Shown once. */
export async function renewFeed(db: Db, userId: string): Promise<RenewedFeed> {
  const token = randomBytes(32).toString("base64url");
  const row = await db.transaction(async (tx) => {
    await revokeFeeds(tx, userId);
    const [inserted] = await tx
      .insert(calendarFeeds)
      .values({ userId, tokenHash: hashToken(token) })
      .returning({ createdAt: calendarFeeds.createdAt });
    return inserted!;
  });
  return { token, createdAt: row.createdAt.toISOString() };
}

export async function revokeFeeds(db: Db, userId: string) {
  await db
    .update(calendarFeeds)
    .set({ revokedAt: new Date() })
    .where(and(eq(calendarFeeds.userId, userId), isNull(calendarFeeds.revokedAt)));
}

export type FeedLookup =
  | { kind: "live"; feedId: number; user: { id: string; role: Role; locale: string } }
  | { kind: "revoked" }
  | { kind: "unknown" };

/** Whose feed a secret opens: a live feed of an account that still exists, a revoked one, or none. */
export async function lookUpFeed(db: Db, token: string): Promise<FeedLookup> {
  if (!FEED_TOKEN.test(token)) return { kind: "unknown" };
  const [row] = await db
    .select({
      feedId: calendarFeeds.id,
      revokedAt: calendarFeeds.revokedAt,
      id: users.id,
      role: users.role,
      locale: users.locale,
      deletedAt: users.deletedAt,
    })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, hashToken(token)))
    .orderBy(desc(calendarFeeds.id))
    .limit(1);
  if (!row) return { kind: "unknown" };
  if (row.revokedAt || row.deletedAt) return { kind: "revoked" };
  return { kind: "live", feedId: row.feedId, user: { id: row.id, role: row.role, locale: row.locale } };
}
