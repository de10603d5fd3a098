import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { canonicalize } from '../canonical/canonical-json.js';
import { decodeRequests, encodeRequests } from './request-encoding.js';

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
  expect(decodeRequests(encodeRequests(requests))).toEqual(requests);
});
