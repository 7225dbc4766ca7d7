// Every mutating form carries an Idempotency-Key header: the first answer for (user, key) is
// stored and replayed, so a retried submission on a flaky network never acts twice.
import type { RequestHandler } from "express";
import { and, eq } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { idempotencyKeys } from "./db/schema.ts";

const KEY_RE = /^[A-Za-z0-9_-]{8,100}$/;

/** Use after `authenticate`. Requests without the header run normally. */
export function idempotent(db: Db): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    const userId = req.user?.id;
    if (!key || !userId || !KEY_RE.test(key)) return next();
    const scopedKey = `${req.method} ${req.baseUrl}${req.path} ${key}`;
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, scopedKey)));
    if (stored) {
      res.set("idempotent-replayed", "true").status(stored.status).json(stored.body);
      return;
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      // Only settled outcomes are remembered; a 5xx may be retried for real.
      if (res.statusCode < 500) {
        db.insert(idempotencyKeys)
          .values({ userId, key: scopedKey, status: res.statusCode, body: body ?? null })
          .onConflictDoNothing()
          .then(
            () => json(body),
            () => json(body),
          );
        return res;
      }
      return json(body);
    };
    next();
  };
}
