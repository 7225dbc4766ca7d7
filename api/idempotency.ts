// Every mutating form carries an Idempotency-Key header: the first answer for (user, key) is
// stored and replayed, so a retried submission on a flaky network never acts twice.
//
// The key is claimed before the handler runs (a row marked in progress, under the primary key),
// so two copies of one submission arriving together (a double tap on a slow phone, a browser that
// re-posts) do not both act: the second waits for the first answer and replays it, instead of
// answering a misleading 'slot taken' for a booking that succeeded.
import type { RequestHandler } from "express";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "./db/index.ts";
import { idempotencyKeys } from "./db/schema.ts";

const KEY_RE = /^[A-Za-z0-9_-]{8,100}$/;
/** Status of a claimed key whose request has not answered yet. */
const IN_PROGRESS = 0;
/** How long a copy waits for the first request's answer (the web tier's own timeout is 10 s). */
const WAIT_MS = 8_000;
const POLL_MS = 50;
/** A claim older than this belongs to a request that died with its process: it may be taken over. */
const ABANDONED_MS = 60_000;

/** Use after `authenticate`. Requests without the header run normally. */
export function idempotent(db: Db): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    const userId = req.user?.id;
    if (!key || !userId || !KEY_RE.test(key)) return next();
    const scopedKey = `${req.method} ${req.baseUrl}${req.path} ${key}`;
    const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, scopedKey));

    // Own the key, or replay its answer, or wait while another copy of this request runs.
    const deadline = Date.now() + WAIT_MS;
    while (!(await claim(db, userId, scopedKey))) {
      const [stored] = await db.select({ status: idempotencyKeys.status, body: idempotencyKeys.body }).from(idempotencyKeys).where(thisKey);
      if (stored && stored.status !== IN_PROGRESS) {
        res.set("idempotent-replayed", "true").status(stored.status).json(stored.body);
        return;
      }
      if (Date.now() > deadline) {
        res.status(409).json({ message: "This request is still being processed. Please wait a moment.", code: "request_in_progress" });
        return;
      }
      // Still running, or just released after a 5xx (then the next claim succeeds).
      if (stored) await new Promise((r) => setTimeout(r, POLL_MS));
    }

    let answered = false;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      answered = true;
      // Only settled outcomes are remembered; after a 5xx the key is released for a real retry.
      const write =
        res.statusCode < 500
          ? db.update(idempotencyKeys).set({ status: res.statusCode, body: body ?? null }).where(thisKey)
          : db.delete(idempotencyKeys).where(thisKey);
      write.then(
        () => json(body),
        () => json(body),
      );
      return res;
    };
    // An answer that is not JSON (or none at all) leaves nothing to replay: release the key.
    res.on("close", () => {
      if (!answered) db.delete(idempotencyKeys).where(and(thisKey, eq(idempotencyKeys.status, IN_PROGRESS))).catch(() => {});
    });
    next();
  };
}

/** True when this request owns the key: it was free, or its claim was abandoned long ago. */
async function claim(db: Db, userId: string, key: string): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId, key, status: IN_PROGRESS, body: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length) return true;
  const takenOver = await db
    .update(idempotencyKeys)
    .set({ createdAt: new Date() })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.status, IN_PROGRESS),
        lt(idempotencyKeys.createdAt, new Date(Date.now() - ABANDONED_MS)),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return takenOver.length > 0;
}
