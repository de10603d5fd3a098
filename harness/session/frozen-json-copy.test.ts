import { describe, expect, it } from 'vitest';
import { frozenJsonCopy } from './frozen-json-copy.js';

describe('frozenJsonCopy', () => {
  it('returns a deep copy equal to what a JSON round-trip gives, frozen at every level', () => {
    const original = { a: [1, { b: 'x', gone: undefined }], n: -0, nil: null };
    const copy = frozenJsonCopy(original, 'tool/call data');
    expect(copy).toEqual(JSON.parse(JSON.stringify(original)));
    expect(Object.is(copy.n, 0)).toBe(true);
    expect('gone' in (copy.a[1] as object)).toBe(false);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.a)).toBe(true);
    expect(Object.isFrozen(copy.a[1])).toBe(true);
    original.a.push(2);
    expect(copy.a).toHaveLength(2);
  });

  it.each([
    ['a function', { f: () => 1 }, /value\.f is a function/],
    ['NaN', { n: Number.NaN }, /value\.n is NaN/],
    ['a Date', { when: new Date(0) }, /value\.when is a Date, not a plain object/],
    ['a Map', [new Map()], /value\[0\] is a Map/],
    ['a bigint', { big: 1n }, /is a bigint/],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the bad input
    ['a sparse array', { list: [1, , 3] }, /value\.list\[1\] is a hole or undefined/],
  ])('refuses %s with INVALID_EVENT naming where it is', (_kind, value, message) => {
    expect(() => frozenJsonCopy(value, 'tool/call data')).toThrow(
      expect.objectContaining({ code: 'INVALID_EVENT', message: expect.stringMatching(message) }),
    );
  });

  it('keeps a "__proto__" key of parsed JSON as a key, so memory equals the file', () => {
    const args = JSON.parse('{"__proto__":{"polluted":true},"path":"a.txt"}') as unknown;
    const copied = frozenJsonCopy(args, 'tool/call data');
    expect(JSON.stringify(copied)).toBe(JSON.stringify(args));
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  });

  it('refuses a cycle instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => frozenJsonCopy(cyclic, 'x')).toThrow(/value\.self refers back to itself/);
  });

  it('accepts the same object twice when it is shared, not cyclic', () => {
    const shared = { k: 1 };
    expect(frozenJsonCopy({ a: shared, b: shared }, 'x')).toEqual({ a: { k: 1 }, b: { k: 1 } });
  });
});
