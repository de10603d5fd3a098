/** A JSON value as parsed from a request body or a cassette line. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The same value with every object's keys sorted, so equal values serialise to equal bytes. */
export function canonicalize(value: unknown): Json {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === 'object') {
    const entries: [string, Json][] = [];
    for (const key of Object.keys(value).sort()) {
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) entries.push([key, canonicalize(field)]);
    }
    // fromEntries defines own properties: an assignment would turn a `__proto__` key of the JSON into a prototype.
    return Object.fromEntries(entries);
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || value === null)
    return value;
  return null;
}

/** One-line JSON with keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}
