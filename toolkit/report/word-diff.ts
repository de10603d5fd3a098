/** A stretch of two texts compared word by word: in both, only in the first, or only in the second. */
export interface DiffPart {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
}

/** Past this many tokens on either side the texts are compared as one changed stretch: the diff is quadratic. */
const MAX_TOKENS = 2_000;

/**
 * `before` and `after` as word-level changes (words, runs of spaces and single punctuation marks
 * are the units), the longest common subsequence kept as `same`. Joining the `same` and `removed`
 * parts gives `before` back; the `same` and `added` parts, `after`.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return merged([...removed(before), ...added(after)]);
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] as Uint32Array;
    const below = lengths[i + 1] as Uint32Array;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  const skipBefore = (): boolean =>
    ((lengths[i + 1] as Uint32Array)[j] as number) >= ((lengths[i] as Uint32Array)[j + 1] as number);
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || skipBefore()))
      parts.push({ kind: 'removed', text: a[i++] as string });
    else parts.push({ kind: 'added', text: b[j++] as string });
  }
  return merged(parts);
}

/** A diff as shown: long unchanged stretches folded, with how many characters they hide. */
export type ShownPart = DiffPart | { readonly kind: 'folded'; readonly chars: number };

/**
 * Unchanged stretches longer than twice `context` folded, `context` characters kept next to
 * each change, so a change deep in a long prompt shows with what surrounds it.
 */
export function foldUnchanged(parts: readonly DiffPart[], context = 40): ShownPart[] {
  return parts.flatMap((part, index): ShownPart[] => {
    if (part.kind !== 'same') return [part];
    const head = index > 0 ? context : 0;
    const tail = index < parts.length - 1 ? context : 0;
    const hidden = part.text.length - head - tail;
    // Folding fewer characters than the marker takes hides nothing.
    if (hidden <= 3) return [part];
    return [
      ...(head > 0 ? [{ kind: 'same' as const, text: part.text.slice(0, head) }] : []),
      { kind: 'folded' as const, chars: hidden },
      ...(tail > 0 ? [{ kind: 'same' as const, text: part.text.slice(part.text.length - tail) }] : []),
    ];
  });
}

function tokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

function removed(text: string): DiffPart[] {
  return text === '' ? [] : [{ kind: 'removed', text }];
}

function added(text: string): DiffPart[] {
  return text === '' ? [] : [{ kind: 'added', text }];
}

/** Neighbouring parts of one kind as one. */
function merged(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last !== undefined && last.kind === part.kind)
      out[out.length - 1] = { kind: part.kind, text: last.text + part.text };
    else out.push(part);
  }
  return out;
}
