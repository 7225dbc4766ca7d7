// Rate limits of the account routes (docs/throttling.md), with rate-limiter-flexible over its
// drizzle store: the counters live in the `rate_limits` table, so every instance behind a load
// balancer (and PGlite alike) agrees. Guessing is stopped where it comes from, the pair of account
// and client address, so an attacker elsewhere cannot lock the real user out.
import type { Response } from "express";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "./db/index.ts";
import { rateLimits } from "./db/schema.ts";
import { tooMany } from "./http.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** Points per window (seconds). Exported for the tests and docs/throttling.md. */
export const LIMITS = {
  // Wrong passwords for one account from one address: the guessing itself.
  loginPair: { points: 5, duration: 15 * MINUTE },
  // Wrong passwords from one address over all accounts: a clinic's or a carrier's shared address
  // holds many honest users, so this is far above what they make together.
  loginAddress: { points: 100, duration: HOUR },
  // Wrong passwords for one account from everywhere: a ceiling against guessing spread over many
  // addresses. Addresses that logged into the account before are not held by it.
  loginAccount: { points: 200, duration: HOUR },
  // An address that logged into an account stays known to it this long.
  knownAddress: { points: 1, duration: 30 * 24 * HOUR },
  // Requests per address on the anonymous account routes, whatever their outcome.
  register: { points: 20, duration: HOUR },
  forgotPassword: { points: 10, duration: 15 * MINUTE },
  resend: { points: 10, duration: 15 * MINUTE },
  codeCheck: { points: 30, duration: 15 * MINUTE },
  // At most one mail per minute per address and kind, whether or not an account exists.
  mailSlot: { points: 1, duration: MINUTE },
  // Phone verification codes by SMS (docs/sms.md): each costs the clinic money and lands on
  // someone's phone, so beyond the once-a-minute resend of every code, per account and per number.
  smsCodeAccount: { points: 5, duration: HOUR },
  smsCodeNumber: { points: 5, duration: HOUR },
  // Codes by SMS asked from one address (sign-up, resend and reset by phone): someone running up
  // the clinic's bill over many numbers. A clinic's shared address holds several honest patients.
  smsCodeAddress: { points: 10, duration: HOUR },
  // At most one code by SMS per number per minute, whether or not an account holds it.
  smsSlot: { points: 1, duration: MINUTE },
  // Calendar feed URLs that name no feed, per address: someone guessing secrets. Calendar services
  // fetch the feeds of many users from a few shared addresses, so a live feed is never counted
  // here, nor a revoked one a calendar keeps polling (docs/calendars.md).
  feedMiss: { points: 30, duration: 15 * MINUTE },
  // Fetches of one live feed: calendars poll every few minutes at most; a leaked URL cannot be
  // used to load the server.
  feedFetch: { points: 60, duration: HOUR },
} as const;

export const THROTTLE_MESSAGES = {
  tooManyLogins: "Too many attempts. Please try again later.",
  rateLimited: "Too many requests. Please wait a few minutes and try again.",
} as const;

type LimitName = keyof typeof LIMITS;

const email = (address: string) => address.trim().toLowerCase();

const instances = new WeakMap<Db, Throttles>();

/** The limiters of one API instance, all over the same table; one set per database handle. */
export function createThrottles(db: Db): Throttles {
  let throttles = instances.get(db);
  if (!throttles) instances.set(db, (throttles = newThrottles(db)));
  return throttles;
}

function newThrottles(db: Db) {
  const limiters = Object.fromEntries(
    Object.entries(LIMITS).map(([name, { points, duration }], index) => [
      name,
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        keyPrefix: name,
        points,
        duration,
        // One limiter sweeps expired rows of the whole table; one sweep is enough.
        clearExpiredByTimeout: index === 0,
      }),
    ]),
  ) as Record<LimitName, RateLimiterDrizzle>;

  /** Seconds until `key` has points again under `name`, 0 when it has some left. */
  async function waitFor(name: LimitName, key: string): Promise<number> {
    const res = await limiters[name].get(key);
    if (!res || res.consumedPoints < LIMITS[name].points) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Takes one point; the seconds to wait when there was none left (the point is counted anyway). */
  async function take(name: LimitName, key: string, customDuration?: number): Promise<number> {
    try {
      await limiters[name].consume(key, 1, customDuration ? { customDuration } : {});
      return 0;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  }

  const pairKey = (account: string, ip: string) => `${email(account)}|${ip}`;

  return {
    /**
     * Counts one request of `name` from `ip`; throws 429 with Retry-After past the limit. Use it
     * after validating the body and before the work it protects.
     */
    async perAddress(res: Response, name: "register" | "forgotPassword" | "resend" | "codeCheck", ip: string) {
      const wait = await take(name, ip);
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.rateLimited, wait);
    },

    /** Whether a mail of `kind` to `address` may go now (once a minute), claiming the slot if so. */
    async mailSlot(kind: "verify" | "reset" | "notice", address: string) {
      return (await take("mailSlot", `${kind}:${email(address)}`)) === 0;
    },

    /** Whether a code SMS may go to `phone` for `userId` now: 429 past either hourly limit. */
    async smsCode(res: Response, userId: string, phone: string) {
      const wait = Math.max(await take("smsCodeAccount", userId), await take("smsCodeNumber", phone));
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.rateLimited, wait);
    },

    /**
     * Before an anonymous route texts a code to `phone` (or would, had an account held it): 429
     * resend_too_soon within `slotSeconds` (CODE_RESEND_SECONDS, a minute) of the last, 429 past the
     * number's or the address's hourly ceiling. Counted whether or not anything is sent, so the
     * answers are the same.
     */
    async phoneCode(res: Response, phone: string, ip: string, slotSeconds: number = LIMITS.smsSlot.duration) {
      const soon = await take("smsSlot", phone, slotSeconds);
      if (soon) throw rateLimited(res, "Please wait before requesting a new code.", soon, "resend_too_soon");
      const wait = Math.max(await take("smsCodeNumber", phone), await take("smsCodeAddress", ip));
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.rateLimited, wait);
    },

    /** Before checking a password: 429 when this pair, this address or (for a new address) the account is held. */
    async beforeLogin(res: Response, account: string, ip: string) {
      const [pair, address, total] = await Promise.all([
        waitFor("loginPair", pairKey(account, ip)),
        waitFor("loginAddress", ip),
        waitFor("loginAccount", email(account)),
      ]);
      let wait = Math.max(pair, address);
      if (total && !(await limiters.knownAddress.get(pairKey(account, ip)))) wait = Math.max(wait, total);
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.tooManyLogins, wait, "too_many_attempts");
    },

    async loginFailed(account: string, ip: string) {
      await Promise.all([
        take("loginPair", pairKey(account, ip)),
        take("loginAddress", ip),
        take("loginAccount", email(account)),
      ]);
    },

    /** A success forgets this pair's failures and makes the address known to the account. */
    async loginSucceeded(account: string, ip: string) {
      await limiters.loginPair.delete(pairKey(account, ip));
      await limiters.knownAddress.set(pairKey(account, ip), 1, LIMITS.knownAddress.duration);
    },

    /** Before looking a calendar feed up: 429 while this address is held for naming unknown feeds. */
    async beforeFeed(res: Response, ip: string) {
      const wait = await waitFor("feedMiss", ip);
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.rateLimited, wait);
    },

    /** A feed URL that names no feed, live or revoked. */
    async feedMissed(ip: string) {
      await take("feedMiss", ip);
    },

    /** One fetch of a live feed; 429 past its limit. */
    async feedFetched(res: Response, feedId: number) {
      const wait = await take("feedFetch", String(feedId));
      if (wait) throw rateLimited(res, THROTTLE_MESSAGES.rateLimited, wait);
    },

    /** A new password (reset) or an erased account: its failure counts start again. */
    async forgetAccount(account: string) {
      await limiters.loginAccount.delete(email(account));
    },
  };
}

type Throttles = ReturnType<typeof newThrottles>;

function rateLimited(res: Response, message: string, retryAfterSeconds: number, code?: string) {
  res.set("Retry-After", String(retryAfterSeconds));
  return tooMany(message, code);
}
