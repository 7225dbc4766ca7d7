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
// Only the web tier of this process opens scopes: server.ts hands it openPageScope and
// closePageScope when the API runs in the same process (a web worker calling the owner of the
// embedded database over HTTP, or an API elsewhere, checks each call).
import { randomBytes } from "node:crypto";

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

const scopes = new Map<string, Scope>();

/** A new scope for one page of the web tier of this process. */
export function openPageScope(): string {
  const key = randomBytes(16).toString("base64url");
  scopes.set(key, {});
  return key;
}

export function closePageScope(key: string) {
  scopes.delete(key);
}

/**
 * The token check of `tokenHash`, made by `lookup` at most once per page scope. Without a scope
 * (or with a key this process did not open) it is simply `lookup()`.
 */
export function checkTokenOnce<U extends CheckedUser>(
  key: string | undefined,
  tokenHash: string,
  lookup: () => Promise<U | undefined>,
): Promise<U | undefined> {
  const scope = key ? scopes.get(key) : undefined;
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
  for (const scope of scopes.values()) {
    if ((match.tokenHash && scope.tokenHash === match.tokenHash) || (match.userId && scope.userId === match.userId)) {
      scope.check = undefined;
      scope.tokenHash = undefined;
      scope.userId = undefined;
    }
  }
}
