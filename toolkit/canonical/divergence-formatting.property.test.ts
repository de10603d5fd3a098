import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestMismatch } from '../replay/replay-messages.js';
import type { Json } from './canonical-json.js';
import { firstDivergence } from './first-divergence.js';
import { jsonEqual } from './json-equal.js';
import { showValues } from './show-values.js';

const context = { location: 'the cassette', recordHint: 'nestcast record demo' };
const NASTY_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'length',
  '0',
  '',
];

/** JSON as JSON.parse builds it: `__proto__` and friends are own keys, never the prototype. */
const json: fc.Arbitrary<Json> = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.array(tie('value'), { maxLength: 4 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 3 })), tie('value'), {
      maxKeys: 4,
    }),
  }))
  .value.map((value) => JSON.parse(JSON.stringify(value)) as Json);

function nested(depth: number, leaf: Json): Json {
  let value: Json = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('formatting a divergence', () => {
  it('never throws, and finds a divergence exactly when the values differ, for JSON with prototype-named keys', () => {
    fc.assert(
      fc.property(json, json, (recorded, live) => {
        const divergence = firstDivergence(recorded, live);
        expect(divergence === undefined).toBe(jsonEqual(recorded, live));
        if (divergence)
          expect(requestMismatch('main', 1, divergence, context).message).toContain(divergence.path.slice(-20));
      }),
      { numRuns: 300 },
    );
  });

  it('names a key called constructor or __proto__ that only one side has, instead of reading the prototype', () => {
    const recorded = JSON.parse('{"messages":[{"constructor":"x","__proto__":{"a":1}}]}') as Json;
    const live = JSON.parse('{"messages":[{"__proto__":{"a":1}}]}') as Json;
    expect(firstDivergence(recorded, live)).toEqual({
      path: 'messages[0].constructor',
      recorded: 'x',
      live: undefined,
    });
    expect(firstDivergence(live, JSON.parse('{"messages":[{}]}') as Json)).toMatchObject({
      path: 'messages[0].__proto__',
      live: undefined,
    });
  });

  it('reports the divergence of values nested 20,000 deep, and the replaying check compares them without overflowing', () => {
    const divergence = firstDivergence(nested(20_000, 'old'), nested(20_000, 'new'));
    expect(divergence).toMatchObject({ recorded: 'old', live: 'new' });
    const message = requestMismatch('main', 1, divergence!, context).message;
    expect(message).toContain('recorded: "old"');
    expect(message.length).toBeLessThan(1_000);
    expect(firstDivergence(nested(20_000, 'same'), nested(20_000, 'same'))).toBeUndefined();
  });

  it('stops at cycles and shows them, instead of recursing forever', () => {
    const recorded: Record<string, unknown> = { name: 'a' };
    recorded['self'] = recorded;
    const live: Record<string, unknown> = { name: 'b' };
    live['self'] = live;
    expect(firstDivergence(recorded as Json, live as Json)).toMatchObject({ path: 'name' });
    expect(showValues(recorded, { self: [live] })).toEqual([
      '{"name":"a","self":[cycle]}',
      '{"self":[{"name":"b","self":[cycle]}]}',
    ]);
    expect(showValues(() => 1, 10n)).toEqual(['[function]', '[bigint]']);
  });

  it('shows two long strings around their first differing character, with offsets, at any length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 121, max: 200_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.string({ minLength: 1, maxLength: 5 }),
        (length, where, change) => {
          const at = Math.min(length - 1, Math.floor(where * length));
          const recorded = 'x'.repeat(length);
          const live = recorded.slice(0, at) + `<${change}>` + recorded.slice(at + 1);
          const [shownRecorded, shownLive] = showValues(recorded, live);
          expect(shownRecorded).toContain(`first difference at ${at}`);
          expect(shownLive).toContain(JSON.stringify(`<${change}>`).slice(1, -1).slice(0, 10));
          expect(shownLive).toContain(`of ${live.length}, first difference at ${at}`);
          expect(shownRecorded).not.toBe(shownLive);
          expect(shownLive.length).toBeLessThan(200);
        },
      ),
      { numRuns: 100 },
    );
  });
});
