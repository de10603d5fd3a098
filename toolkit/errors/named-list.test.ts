import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { NAMES_SHOWN, namedList } from './named-list.js';

const roots = (count: number) => Array.from({ length: count }, (_, i) => `main-${i + 1}`);

describe('namedList', () => {
  test('joins a short list whole, and an empty one to nothing', () => {
    expect(namedList([])).toBe('');
    expect(namedList(['main', 'main/call_1'])).toBe('main, main/call_1');
    expect(namedList(roots(NAMES_SHOWN))).toBe(roots(NAMES_SHOWN).join(', '));
  });

  test('a long list keeps its first names and counts the rest', () => {
    expect(namedList(roots(5_000))).toBe(`${roots(NAMES_SHOWN).join(', ')}, … and 4,980 more`);
  });

  test("near a lineage, a long list keeps that lineage's parent and siblings before distant roots, in the list's order", () => {
    const known = [...roots(100), 'main-7/call_a', 'main-7/call_b', 'main-7/call_b/inner'];
    const listed = namedList(known, 'main-7/call_c');
    expect(listed.split(', … and ')[1]).toBe(`${known.length - NAMES_SHOWN} more`);
    const kept = (listed.split(', … and ')[0] ?? '').split(', ');
    expect(kept).toHaveLength(NAMES_SHOWN);
    expect(kept.filter((name) => name.startsWith('main-7/') || name === 'main-7')).toEqual([
      'main-7',
      'main-7/call_a',
      'main-7/call_b',
      'main-7/call_b/inner',
    ]);
  });

  test.prop(
    [
      fc.uniqueArray(fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,3}$/), { maxLength: 60 }),
      fc.stringMatching(/^[a-c]{1,2}(\/[a-c]{1,2}){0,3}$/),
    ],
    {
      numRuns: 500,
    },
  )(
    'names at most NAMES_SHOWN of the list, in its order, none nearer left out than one named, and counts the rest',
    (names, near) => {
      const listed = namedList(names, near);
      if (names.length <= NAMES_SHOWN) {
        expect(listed).toBe(names.join(', '));
        return;
      }
      const [head, tail] = listed.split(', … and ');
      expect(tail).toBe(`${names.length - NAMES_SHOWN} more`);
      const kept = (head ?? '').split(', ');
      expect(kept).toHaveLength(NAMES_SHOWN);
      expect(kept).toEqual(names.filter((name) => kept.includes(name)));
      const depth = (name: string) => {
        const a = name.split('/');
        const b = near.split('/');
        let count = 0;
        while (count < a.length && count < b.length && a[count] === b[count]) count++;
        return count;
      };
      const least = Math.min(...kept.map(depth));
      for (const left of names.filter((name) => !kept.includes(name))) expect(depth(left)).toBeLessThanOrEqual(least);
    },
  );
});
