import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldUnchanged, wordDiff, type DiffPart } from './word-diff.js';

const join = (parts: readonly DiffPart[], keep: DiffPart['kind']): string =>
  parts
    .filter((part) => part.kind === 'same' || part.kind === keep)
    .map((part) => part.text)
    .join('');

const words = fc
  .array(fc.constantFrom('the', 'helper', 'says', 'hello', 'hi', ' ', '  ', '.', ',', '"', 'é', '\n'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

describe('the word diff of a divergence', () => {
  it('gives both texts back: same and removed parts make the recorded one, same and added the live one', () => {
    fc.assert(
      fc.property(words, words, (before, after) => {
        const parts = wordDiff(before, after);
        expect(join(parts, 'removed')).toBe(before);
        expect(join(parts, 'added')).toBe(after);
        // Equal texts are one unchanged part; no part is empty.
        if (before === after) expect(parts.every((part) => part.kind === 'same')).toBe(true);
        expect(parts.every((part) => part.text !== '')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('marks only the changed word of an edited prompt', () => {
    expect(wordDiff('"Ask a helper to say hello."', '"Ask a helper to say hi."')).toEqual([
      { kind: 'same', text: '"Ask a helper to say ' },
      { kind: 'removed', text: 'hello' },
      { kind: 'added', text: 'hi' },
      { kind: 'same', text: '."' },
    ]);
  });

  it('folds a long unchanged stretch around the change, keeping its ends next to the change', () => {
    const long = `${'word '.repeat(100)}`;
    const shown = foldUnchanged(wordDiff(`${long}hello`, `${long}hi`), 10);
    expect(shown).toEqual([
      { kind: 'folded', chars: long.length - 10 },
      { kind: 'same', text: long.slice(-10) },
      { kind: 'removed', text: 'hello' },
      { kind: 'added', text: 'hi' },
    ]);
  });
});
