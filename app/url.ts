// URL helpers shared by route modules and their server code (no UI here: .server.ts files import it).
/** The current URL with some search parameters set or removed (null removes). */
export function withParams(url: string, changes: Record<string, string | null>) {
  const [path, query = ""] = url.split("?");
  const params = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path!;
}

/** A positive whole number from the address (an id of the reference lists, a page), else null. */
export const positiveId = (value: string | null | undefined) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** A page number from the address; anything else is the first page (every paged list). */
export const pageNumber = (value: string | null | undefined) => positiveId(value) ?? 1;
