import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { digest, digestJoined } from './message-key.js';

describe('digestJoined', () => {
  // The threader's prefix keys were `digest(prefix + key)`; they must not change, or sessions would thread differently.
  test('equals the digest of the joined string, for any two strings (unicode and lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (prefix, text) => {
        expect(digestJoined(prefix, text)).toBe(digest(prefix + text));
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  test('depends on where the join is only through the joined text', () => {
    expect(digestJoined('ab', 'c')).toBe(digestJoined('a', 'bc'));
    expect(digestJoined('ab', 'c')).not.toBe(digestJoined('ab', 'd'));
  });
});
