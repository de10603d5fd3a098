import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { canonicalize, canonicalJson, type Json } from './canonical-json.js';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  test.prop([fc.jsonValue(), fc.jsonValue()], { numRuns: 500 })('agrees with comparing canonical JSON', (a, b) => {
    expect(jsonEqual(a as Json, b as Json)).toBe(canonicalJson(a) === canonicalJson(b));
  });

  test.prop([fc.jsonValue()], { numRuns: 300 })('ignores key order', (value) => {
    const reversed = (v: unknown): Json =>
      Array.isArray(v)
        ? v.map(reversed)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : (v as Json);
    expect(jsonEqual(canonicalize(value), reversed(value))).toBe(true);
  });

  test.each([
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [
      [1, 2],
      [1, 2, 3],
    ],
    [[1], { 0: 1 }],
    [null, {}],
    ['1', 1],
  ])('tells %j from %j', (a, b) => {
    expect(jsonEqual(a as Json, b as Json)).toBe(false);
  });
});

describe('canonicalize', () => {
  test('keeps a "__proto__" key of parsed JSON as a key, as JSON.parse does', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"x":2}}') as Json;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":2},"b":1}');
    expect(jsonEqual(canonicalize(parsed), parsed)).toBe(true);
  });
});
