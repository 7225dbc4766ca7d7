// The Content-Security-Policy of every answer (docs/architecture.md: a strict nonce-based policy),
// and the request's nonce for the scripts React Router writes. The header is written once at start
// and only the nonce changes per request: helmet built it again from its directives on every request
// (2% of a page's CPU, bench/README.md). Nonces are cut from a pool of random bytes rather than one
// call to the system's generator each.
import { randomBytes } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

const NONCE_PLACEHOLDER = "\0nonce\0";

/** The policy's directives, `nonce` standing for the request's nonce. */
export function cspDirectives(
  options: { upgradeInsecureRequests: boolean },
  nonce: string,
): Record<string, string[] | null> {
  return {
    "default-src": ["'self'"],
    "script-src": [`'nonce-${nonce}'`, "'strict-dynamic'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "upgrade-insecure-requests": options.upgradeInsecureRequests ? [] : null,
  };
}

const NONCE_BYTES = 16;
const POOL_BYTES = NONCE_BYTES * 256;
let pool = Buffer.alloc(0);
let used = POOL_BYTES;

/** 16 random bytes in base64, never the same twice. */
export function newNonce(): string {
  if (used === POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += NONCE_BYTES;
  return pool.toString("base64", used - NONCE_BYTES, used);
}

/** Sets `res.locals.nonce` and the Content-Security-Policy header that allows it. */
export function contentSecurityPolicy(options: { upgradeInsecureRequests: boolean }): RequestHandler {
  const header = Object.entries(cspDirectives(options, NONCE_PLACEHOLDER))
    .filter((entry): entry is [string, string[]] => entry[1] !== null)
    .map(([name, values]) => [name, ...values].join(" "))
    .join(";");
  const [before, after] = header.split(NONCE_PLACEHOLDER);
  return (_req, res, next) => {
    const nonce = newNonce();
    res.locals.nonce = nonce;
    res.setHeader("Content-Security-Policy", before + nonce + after);
    next();
  };
}

/**
 * A middleware whose headers depend on nothing in the request (helmet's, without the CSP), run
 * once at start: each request then gets the same headers from a list, instead of a dozen
 * middlewares each setting one (about 0.6% of a page's CPU, bench/README.md).
 */
export function headersOnce(
  middleware: (req: Request, res: Response, next: (error?: unknown) => void) => void,
): RequestHandler {
  const steps: [name: string, value: string | null][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void steps.push([name, String(value)]),
    removeHeader: (name: string) => void steps.push([name, null]),
  };
  let called = false;
  middleware({} as Request, recorder as unknown as Response, (error) => {
    if (error) throw error;
    called = true;
  });
  if (!called) throw new Error("headersOnce: the middleware did not finish at once");
  return (_req, res, next) => {
    for (const [name, value] of steps) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
