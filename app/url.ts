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
