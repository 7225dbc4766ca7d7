// Every mutating form carries an Idempotency-Key header: the first answer for (user, key) is
// stored and replayed, so a retried submission on a flaky network never acts twice.
//
// The key is recorded in the same transaction as the change it guards (inRequestTransaction: the
// handler's every use of `db` joins it). So there is no moment where the change is committed and
// the key is not: after a crash at any point, either both exist (a retry replays the answer) or
// neither does (a retry acts, for the first time). Recording them apart once told a patient whose
// booking had succeeded just before a crash that the slot was taken, by their own booking.
//
// Two copies of one submission arriving together (a double tap on a slow phone) both insert the
// key; the second insert waits for the first transaction (PostgreSQL holds the new key's index
// entry until commit; PGlite runs one transaction at a time), then finds the key and replays.
//
// A key names one request: reused with another body it is refused (422), and it expires after
// KEY_TTL_MS, after which the same key acts anew. See docs/idempotency.md.
import { createHash } from "node:crypto";
import type { RequestHandler, Response } from "express";
import { and, eq, lt } from "drizzle-orm";
import { inRequestTransaction, type Db } from "./db/index.ts";
import { idempotencyKeys } from "./db/schema.ts";

const KEY_RE = /^[A-Za-z0-9_-]{8,100}$/;
/** How long a key is remembered: far longer than any retry, short enough to keep the table small. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired keys are swept at most this often per process. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

/** The request a key stands for: method, path and body, canonical (key order does not matter). */
function fingerprint(method: string, path: string, body: unknown) {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return createHash("sha256")
    .update(JSON.stringify([method, path, canonical(body ?? null)]))
    .digest("base64url");
}

/** Thrown inside the transaction to undo it while still sending the handler's answer. */
class Undo extends Error {
  answer: Answer;
  constructor(answer: Answer) {
    super("undo");
    this.answer = answer;
  }
}
interface Answer {
  status: number;
  body: unknown;
  replayed?: boolean;
}

/** Use after `authenticate`. Requests without the header run normally. */
export function idempotent(db: Db): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    const userId = req.user?.id;
    if (!key || !userId || !KEY_RE.test(key)) return next();
    const route = `${req.baseUrl}${req.path}`;
    const scopedKey = `${req.method} ${route} ${key}`;
    const requestHash = fingerprint(req.method, route, req.body);
    const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, scopedKey));
    sweep(db);

    const send = captureAnswer(res);
    let answer: Answer;
    try {
      answer = await inRequestTransaction(db, async (tx): Promise<Answer> => {
        const expiredBefore = new Date(Date.now() - KEY_TTL_MS);
        const claimed = await tx
          .insert(idempotencyKeys)
          .values({ userId, key: scopedKey, status: 0, body: {}, requestHash })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (!claimed.length) {
          const [stored] = await tx.select().from(idempotencyKeys).where(thisKey).for("update");
          // Status 0 is a claim of the earlier design whose request died; expired keys act anew.
          const stale = !stored || stored.status === 0 || stored.createdAt < expiredBefore;
          if (!stale) {
            if (stored.requestHash && stored.requestHash !== requestHash) {
              return {
                status: 422,
                body: {
                  message:
                    "This Idempotency-Key was already used for a different request. Use a new key for a new request.",
                  code: "idempotency_key_reused",
                },
              };
            }
            return { status: stored.status, body: stored.body, replayed: true };
          }
          await tx
            .update(idempotencyKeys)
            .set({ status: 0, body: {}, requestHash, createdAt: new Date() })
            .where(thisKey);
        }
        const result = await send.run(next);
        // A refusal (4xx) or a server error changed nothing to protect, and the statement that
        // failed may have aborted the transaction: undo, and remember nothing, so the corrected
        // form (another slot after 'slot taken'), sent again with its key, acts for real.
        if (result.status >= 400) throw new Undo(result);
        await tx
          .update(idempotencyKeys)
          .set({ status: result.status, body: result.body ?? null })
          .where(thisKey);
        return result;
      });
    } catch (error) {
      send.restore();
      if (!(error instanceof Undo)) {
        // The database failed (or the handler's answer could not be recorded): nothing was kept.
        if (!send.answered) return next(error);
        console.error(`[api] idempotent request not recorded: ${(error as Error).message}`);
        answer = { status: 500, body: { message: "Something went wrong", code: "internal" } };
      } else {
        answer = error.answer;
      }
    }
    if (answer.replayed) res.set("idempotent-replayed", "true");
    send.deliver(answer);
  };
}

/**
 * Holds back the handler's JSON answer until the transaction has committed. `run` calls the
 * handler and resolves with its status and body; `deliver` then sends the final answer.
 */
function captureAnswer(res: Response) {
  const json = res.json.bind(res);
  const state = {
    answered: false,
    run(next: (err?: unknown) => void): Promise<Answer> {
      return new Promise<Answer>((resolve, reject) => {
        res.json = (body: unknown) => {
          state.answered = true;
          resolve({ status: res.statusCode, body });
          return res;
        };
        // A handler that ends the response another way leaves nothing to replay. Only its own
        // answer counts ('finish'), not the client going away ('close'): the handler is still
        // running in this transaction, which must not end under it (its statements would then run
        // on a connection given back to the pool, inside another request's transaction). It ends
        // when the handler does, and the answer goes nowhere.
        res.once("finish", () => reject(new Error("the response ended without a JSON answer")));
        next();
      });
    },
    restore() {
      res.json = json;
    },
    deliver(answer: Answer) {
      res.json = json;
      // Nobody to answer: the client went away while the handler ran.
      if (res.headersSent || res.destroyed) return;
      res.status(answer.status).json(answer.body);
    },
  };
  return state;
}

/** Deletes expired keys now and then, off the request's transaction. */
function sweep(db: Db) {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  db.delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now - KEY_TTL_MS)))
    .catch((error: Error) => console.warn(`idempotency sweep failed: ${error.message}`));
}
