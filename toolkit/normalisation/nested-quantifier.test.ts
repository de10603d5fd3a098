import { describe, expect, test } from 'vitest';
import { createNormaliser } from './normaliser.js';
import { nestedQuantifier } from './nested-quantifier.js';

describe('a normalisation pattern that backtracks exponentially is refused before it runs', () => {
  test.each([
    ['(a+)+$', '(a+)+'],
    ['^(\\d*x)*y', '(\\d*x)*'],
    ['(?:[a-z]+-){2,}z', '(?:[a-z]+-){2,}'],
    ['id-((?:ab)+c)+!', '((?:ab)+c)+'],
    ['(?<word>\\w+\\s?)+?$', '(?<word>\\w+\\s?)+?'],
    ['x((a{1,9})*)', '(a{1,9})*'],
  ])('%s repeats a group that itself repeats: %s', (pattern, part) => {
    expect(nestedQuantifier(pattern)).toBe(part);
  });

  test.each([
    'run-[0-9]+',
    '(ab)+',
    '(?:-[0-9a-f]{4})+',
    '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z',
    '[(+]+(x)',
    '\\(a+\\)+',
    '(a?b)*',
    '(?:req|resp)_[A-Za-z0-9]{24}',
    '(a+)?',
    '(a{3})+',
  ])('%s is accepted: no group that repeats holds a part that repeats', (pattern) => {
    expect(nestedQuantifier(pattern)).toBeUndefined();
  });

  test('a rule (a+)+$ is NORMALISATION_INVALID naming the rule and the part, before any request (one of 50 000 a and a !) meets it', () => {
    const rules = [
      { replace: 'run-[0-9]+', with: 'run-<n>' },
      { replace: '(a+)+$', with: 'x' },
    ];
    const request = { messages: [{ role: 'user', content: `${'a'.repeat(50_000)}!` }] };
    expect(() => createNormaliser({ rules }, 'meta.json').apply(request)).toThrowError(
      expect.objectContaining({
        code: 'NORMALISATION_INVALID',
        message: expect.stringContaining(
          'Invalid normalisation rule in meta.json: rule 2: "(a+)+" repeats a group that itself repeats',
        ) as unknown,
      }),
    );
  });
});
