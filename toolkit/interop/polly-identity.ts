import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical/canonical-json.js';
import { canonicalRequest } from '../canonical/canonical-request.js';

/**
 * Polly.js `matchRequestsBy` under which an exported HAR is found: requests are identified by
 * method, URL and the canonical request (as nestcast compares them), not by the client's headers
 * or key order. Pass it to `new Polly(name, { matchRequestsBy: pollyMatchRequestsBy, … })`.
 */
export const pollyMatchRequestsBy = {
  headers: false,
  body: (body: unknown): string => (typeof body === 'string' ? canonicalJson(canonicalRequest(body)) : ''),
  order: true,
} as const;

/**
 * The `_id` Polly.js gives a request under `pollyMatchRequestsBy`: md5 of the stable JSON of its
 * identifiers, as `@pollyjs/core` computes it (fast-json-stable-stringify sorts keys, as canonicalJson does).
 */
export function pollyRequestId(method: string, url: string, body: string): string {
  const identifiers = { method: method.toUpperCase(), body: pollyMatchRequestsBy.body(body), url };
  return createHash('md5').update(canonicalJson(identifiers)).digest('hex');
}
