import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { maskSecrets, secretPrefixAtEnd } from './mask-secrets.js';

const secretArb = fc
  .string({ unit: fc.constantFrom(...'abcdef0123456789-_/ABCXYZ'), minLength: 12, maxLength: 32 })
  .map((body) => `sk-${body}`);
/** Filler that can never form the secret: no `s`, no `k`. */
const filler = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '😀', '"', '\n', '{'), maxLength: 12 });

/** `text` with the characters picked by `escapes` written as JSON escapes (`\u002d`, `\/`), in either hex case. */
function escaped(text: string, escapes: readonly boolean[], upper: boolean): string {
  return [...text]
    .map((char, i) => {
      if (!escapes[i % escapes.length]) return char;
      if (char === '/') return '\\/';
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');
}

describe('masking what nestcast prints', () => {
  test.prop([secretArb, filler, filler, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), fc.boolean()], {
    numRuns: fuzzRuns(300),
  })(
    'a secret printed as written or JSON-escaped becomes its mask, and the text around it stays',
    (secret, before, after, escapes, upper) => {
      const printed = maskSecrets(`${before}${escaped(secret, escapes, upper)}${after}`, [
        { value: secret, label: 'the TEST_KEY environment variable' },
      ]);
      expect(printed).toBe(`${before}[masked: the TEST_KEY environment variable]${after}`);
    },
  );

  test.prop([secretArb, filler, fc.nat()], { numRuns: fuzzRuns(200) })(
    'the end of a write that begins a secret is held back, and never more than that',
    (secret, before, cut) => {
      const at = 1 + (cut % (secret.length - 1));
      const secrets = [{ value: secret, label: 'x' }];
      expect(secretPrefixAtEnd(`${before}${secret.slice(0, at)}`, secrets)).toBe(at);
      expect(secretPrefixAtEnd(`${before}${secret}.`, secrets)).toBe(0);
    },
  );
});
