import { credentialHeaderNames, credentialQueryNames } from '../protocols/registry.js';

/**
 * The headers with whatever key the caller sent (a dummy one) replaced by the real `apiKey`, in
 * the header it sent it in and with its scheme (`Bearer …`): the caller never holds the real key.
 */
export function withRealKey(sent: Headers, apiKey: string): Headers {
  const headers = new Headers(sent);
  for (const name of credentialHeaderNames()) {
    const value = headers.get(name);
    if (value === null) continue;
    const scheme = /^\s*(bearer|basic|token)\s+/i.exec(value)?.[0] ?? '';
    headers.set(name, `${scheme}${apiKey}`);
  }
  return headers;
}

/** The URL with a key the caller sent in the query (Gemini's `key=`) replaced by the real one. */
export function withRealKeyInQuery(url: string, apiKey: string): string {
  const parsed = new URL(url);
  let changed = false;
  for (const name of credentialQueryNames()) {
    if (!parsed.searchParams.has(name)) continue;
    parsed.searchParams.set(name, apiKey);
    changed = true;
  }
  return changed ? parsed.href : url;
}
