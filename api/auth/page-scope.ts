// One token check per page (docs/performance.md): a page of the web tier makes up to two calls
// to the API, side by side, with the same bearer token. When the API runs in the web tier's own
// process, the web tier opens a page scope for the page, sends its key with each call, and closes
// it once the page's loaders are done; the API then looks the token up once for the scope and the
// other calls of that page share the answer.
//
// Nothing outlives the page: a scope is created only by the web tier (an unknown key sent by a
// client is ignored and its token looked up as always), the key never leaves the server, and
// revoking a token (logout, a password reset, a deleted account) empties the scopes that hold it, so
// a revoked token stops working on the very next call.
//
// With the embedded database and several web workers (server-cluster.ts), the API runs in the
// owner's process and a page's scope is opened in the worker's: the worker's calls carry the key by
// message, the owner takes it as a scope on the first call that brings it (never from HTTP), and
// the worker tells the owner when the page is done (a call made after that carries no key). The
// owner drops a worker's scopes when the worker is gone.
//
// The registry is kept on globalThis: this module is loaded twice in the web server (by server.ts
// with the API, and bundled into the React Router build), and both copies must see the same scopes.
import { randomBytes } from "node:crypto";

export const PAGE_SCOPE_HEADER = "x-page-scope";

/** What a token check answers: the user (api/http.ts's AuthUser; only its id matters here). */
interface CheckedUser {
  id: string;
}

interface Scope {
  tokenHash?: string;
  /** The token's lookup, shared by calls that arrive while it runs; undefined when the token is not live. */
  check?: Promise<CheckedUser | undefined>;
  userId?: string;
}

interface Registry {
  scopes: Map<string, Scope>;
  /** Set once an API runs in this process: only then can it read the scopes the web tier opens. */
  apiInProcess: boolean;
  /** In a web worker whose API runs in the owner's process: tells the owner a page's scope ended. */
  closedAtOwner?: (key: string) => void;
}

const KEY = Symbol.for("healthcare-appointments.page-scopes");
const registry: Registry = ((globalThis as Record<symbol, Registry | undefined>)[KEY] ??= { scopes: new Map(), apiInProcess: false });

/** Called by createApi: pages served by this process may share their token check with this API. */
export function servePageScopes() {
  registry.apiInProcess = true;
}

/**
 * Called in a web worker that calls the owner's API by message: pages open scopes, and
 * `closedAtOwner` tells the owner when one ends. Returns the function that stops it (tests).
 */
export function shareScopesWithOwner(closedAtOwner: (key: string) => void): () => void {
  registry.closedAtOwner = closedAtOwner;
  return () => {
    if (registry.closedAtOwner === closedAtOwner) registry.closedAtOwner = undefined;
  };
}

/**
 * A new scope for one page, or undefined when no API runs in this process or in the owner it
 * calls by message (an API elsewhere, API_URL, checks each call).
 */
export function openPageScope(): string | undefined {
  if (!registry.apiInProcess && !registry.closedAtOwner) return undefined;
  const key = randomBytes(16).toString("base64url");
  registry.scopes.set(key, {});
  return key;
}

export function closePageScope(key: string | undefined) {
  if (key && registry.scopes.delete(key)) registry.closedAtOwner?.(key);
}

/** Whether `key` names a scope open in this process (a worker sends only those to the owner). */
export function isPageScopeOpen(key: string): boolean {
  return registry.scopes.has(key);
}

/** What openPageScope makes: 16 random bytes, base64url. */
const SCOPE_KEY = /^[A-Za-z0-9_-]{22}$/;

/**
 * The owner's side: `key` came with a worker's call by message, so it is a scope that worker
 * opened for a page; the page's other calls share its token check from now on. Only the channel
 * from the workers may call this, never a request from the network. False for a malformed key.
 */
export function adoptPageScope(key: string): boolean {
  if (!SCOPE_KEY.test(key)) return false;
  if (!registry.scopes.has(key)) registry.scopes.set(key, {});
  return true;
}

/** The owner's side: the worker's page is done (or the worker is gone). */
export function dropPageScope(key: string) {
  registry.scopes.delete(key);
}

/**
 * The token check of `tokenHash`, made by `lookup` at most once per page scope. Without a scope
 * (or with a key this process did not open) it is simply `lookup()`.
 */
export function checkTokenOnce<U extends CheckedUser>(key: string | undefined, tokenHash: string, lookup: () => Promise<U | undefined>): Promise<U | undefined> {
  const scope = key ? registry.scopes.get(key) : undefined;
  if (!scope) return lookup();
  // The scope's check was made by this same lookup for this same token hash: the same user type.
  if (scope.check && scope.tokenHash === tokenHash) return scope.check as Promise<U | undefined>;
  scope.tokenHash = tokenHash;
  scope.userId = undefined;
  const check = lookup();
  scope.check = check;
  check.then(
    (found) => {
      if (scope.check === check) scope.userId = found?.id;
    },
    () => {
      // A failed lookup is not shared: the next call of the page tries again.
      if (scope.check === check) scope.check = undefined;
    },
  );
  return check;
}

/** A token was revoked: no open scope answers for it any more. */
export function forgetTokenChecks(match: { tokenHash?: string; userId?: string }) {
  for (const scope of registry.scopes.values()) {
    if ((match.tokenHash && scope.tokenHash === match.tokenHash) || (match.userId && scope.userId === match.userId)) {
      scope.check = undefined;
      scope.tokenHash = undefined;
      scope.userId = undefined;
    }
  }
}
