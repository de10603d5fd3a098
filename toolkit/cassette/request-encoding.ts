import { canonicalJson, type Json } from '../canonical/canonical-json.js';
import { fingerprintOf, type CanonicalRequest } from '../canonical/canonical-request.js';
import { summarizeRequest } from './request-summary.js';
import type { StoredRequest } from './types.js';

/**
 * Stores each request of one lineage as the difference from the previous one: `base` only when it
 * changed, `added` the appended messages. Files then grow linearly with the conversation.
 */
export function encodeRequests(requests: readonly (CanonicalRequest | null)[]): (StoredRequest | null)[] {
  let previous: { base: string; messages: readonly Json[] | undefined } | undefined;
  return requests.map((request) => {
    if (request === null) return null;
    const { messages, base } = splitMessages(request);
    const baseJson = canonicalJson(base);
    const stored: { -readonly [K in keyof StoredRequest]: StoredRequest[K] } = {
      fingerprint: fingerprintOf(request),
      summary: summarizeRequest(request),
    };
    if (previous?.base !== baseJson) stored.base = base;
    if (messages) {
      const prior = previous?.messages;
      if (prior && extendsMessages(messages, prior)) {
        stored.added = messages.slice(prior.length);
      } else {
        stored.added = messages;
        if (prior) stored.reset = true;
      }
    }
    previous = { base: baseJson, messages };
    return stored;
  });
}

/** Where a stored request cannot be rebuilt: the index in the lineage and why. */
export interface RebuildProblem {
  readonly index: number;
  readonly message: string;
}

/** Inverse of `encodeRequests`. Returns the problem instead when a line refers to state it cannot have. */
export function decodeRequests(stored: readonly (StoredRequest | null)[]): (CanonicalRequest | null)[] | RebuildProblem {
  const out: (CanonicalRequest | null)[] = [];
  let base: CanonicalRequest | undefined;
  let messages: readonly Json[] | undefined;
  for (const [index, entry] of stored.entries()) {
    if (entry === null) {
      out.push(null);
      continue;
    }
    base = entry.base ?? base;
    if (!base) return { index, message: 'the first request of a session must carry `base`' };
    if (entry.added === undefined) {
      messages = undefined;
      out.push(base);
      continue;
    }
    messages = entry.reset || !messages ? entry.added : [...messages, ...entry.added];
    out.push({ ...base, messages: [...messages] });
  }
  return out;
}

function splitMessages(request: CanonicalRequest): { messages: readonly Json[] | undefined; base: CanonicalRequest } {
  const { messages, ...base } = request;
  return Array.isArray(messages) ? { messages, base } : { messages: undefined, base: request };
}

function extendsMessages(messages: readonly Json[], prior: readonly Json[]): boolean {
  return prior.length <= messages.length && prior.every((message, i) => canonicalJson(message) === canonicalJson(messages[i]));
}
