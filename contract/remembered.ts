// Values worked out again and again with the same inputs (a fee, a day, a zone's wording, an
// appointment's start, a request's language), remembered per key. Their keys come from data or from
// requests, so every such memory is bounded: past `limit` keys it starts again. Nothing of a user's
// belongs in one (docs/performance.md).

/** A memory of at most `limit` keys: `(key, make)` gives what `make` gave for `key` the first time. */
export function remembered<V>(limit: number): (key: string, make: () => V) => V {
  const known = new Map<string, V>();
  return (key, make) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      known.set(key, (value = make()));
    }
    return value;
  };
}
