import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { canonicalize } from '../canonical/canonical-json.js';
import { canonicalRequest, fingerprintOf, requestContent } from '../canonical/canonical-request.js';
import { createMessageSharer, decodeRequests, encodeRequests } from './request-encoding.js';

const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'tool'), content: fc.string({ maxLength: 8 }) });

/** A session's requests: each either extends the previous messages, replaces them, or has none; the base changes now and then. */
const session = fc
  .array(
    fc.record({
      step: fc.constantFrom('extend', 'reset', 'no-messages', 'any'),
      messages: fc.array(message, { maxLength: 3 }),
      model: fc.constantFrom('a', 'b'),
    }),
    { maxLength: 8 },
  )
  .map((steps) => {
    let messages: object[] = [];
    return steps.map(({ step, messages: more, model }): CanonicalRequest | null => {
      if (step === 'any') return null;
      if (step === 'no-messages') return canonicalize({ model, input: more }) as CanonicalRequest;
      messages = step === 'extend' ? [...messages, ...more] : more;
      return canonicalize({ model, messages }) as CanonicalRequest;
    });
  });

test.prop([session])('stored requests rebuild to exactly the requests recorded', (requests) => {
  expect(decodeRequests(encodeRequests(requests, chatFields(requests)), chatFields(requests))).toEqual(requests);
});

test.prop([session])(
  'each stored fingerprint is the sha256 of the full request, however the encoder got there',
  (requests) => {
    const stored = encodeRequests(requests, chatFields(requests));
    stored.forEach((entry, i) => {
      const request = requests[i];
      expect(entry?.fingerprint).toBe(request ? fingerprintOf(request) : undefined);
    });
  },
);

test.prop([session])(
  'requests rebuilt from a file (sharing one message log) store exactly as the originals did',
  (requests) => {
    const rebuilt = decodeRequests(encodeRequests(requests, chatFields(requests)), chatFields(requests));
    if (!Array.isArray(rebuilt)) throw new Error(rebuilt.message);
    expect(encodeRequests(rebuilt, chatFields(rebuilt))).toEqual(encodeRequests(requests, chatFields(requests)));
  },
);

test.prop([session, fc.array(fc.nat(), { maxLength: 8 })])(
  'a recorder sharing one message log per session hands back each request exactly as canonicalised alone, in any arrival order',
  (requests, order) => {
    const share = createMessageSharer('messages');
    const present = requests.filter((request): request is CanonicalRequest => request !== null);
    // Arrival order shuffled by `order`; keys reversed, as a client may send them.
    const arrivals = present.map((request, i) => ({ request, key: order[i] ?? i })).sort((a, b) => a.key - b.key);
    for (const { request } of arrivals) {
      const sent = JSON.stringify(request, (_key, value: unknown) =>
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).reverse())
          : value,
      );
      expect(share(requestContent(sent))).toEqual(canonicalRequest(sent));
    }
  },
);

/** Chat-completions requests: each call's history is its `messages`. */
function chatFields(requests: readonly unknown[]): string[] {
  return requests.map(() => 'messages');
}
