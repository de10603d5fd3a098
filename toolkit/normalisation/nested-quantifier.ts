/**
 * The first part of a regular expression source that repeats a group which itself repeats
 * (`(a+)+`, `(\d*x)*`, `(?:[a-z]+-){2,}`), or `undefined`. Such a pattern can take time exponential
 * in the length of a string it fails on (`(a+)+$` on a long run of `a` followed by `!`), and a
 * normalisation rule runs on every string of every request, in a thread nothing can interrupt
 * outside a `nestcast run` worker. A repeated group whose own contents do not repeat
 * (`(ab)+`, `(?:-[0-9a-f]{4})+` where `{4}` is a fixed count) is fine.
 *
 * Read without a full parser: escapes, character classes and group openers are skipped for what
 * they are; `?` and `{0,1}`/`{n}` do not repeat. Backtracking that is polynomial (`\d+\d+$`) or
 * comes from overlapping alternatives under a repeat (`(a|a)*`) is not found here.
 */
export function nestedQuantifier(source: string): string | undefined {
  /** Open groups: where each starts, and whether anything inside it repeats. */
  const open: { start: number; repeats: boolean }[] = [{ start: 0, repeats: false }];
  let at = 0;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === '\\') {
      at = afterQuantifier(source, at + 2, open);
      continue;
    }
    if (char === '[') {
      at = afterQuantifier(source, classEnd(source, at), open);
      continue;
    }
    if (char === '(') {
      open.push({ start: at, repeats: false });
      at = afterGroupOpener(source, at);
      continue;
    }
    if (char === ')' && open.length > 1) {
      const group = open.pop() as { start: number; repeats: boolean };
      const quantifier = repeatAt(source, at + 1);
      if (quantifier !== undefined && quantifier.repeats && group.repeats) {
        return source.slice(group.start, quantifier.end);
      }
      const parent = open[open.length - 1] as { repeats: boolean };
      parent.repeats ||= group.repeats || quantifier?.repeats === true;
      at = quantifier?.end ?? at + 1;
      continue;
    }
    at = afterQuantifier(source, at + 1, open);
  }
  return undefined;
}

/** Past the atom ending at `end`, and its quantifier if any, which marks the innermost open group as repeating. */
function afterQuantifier(source: string, end: number, open: { repeats: boolean }[]): number {
  const quantifier = repeatAt(source, end);
  if (quantifier === undefined) return end;
  if (quantifier.repeats) (open[open.length - 1] as { repeats: boolean }).repeats = true;
  return quantifier.end;
}

/** The quantifier starting at `at` (with its lazy `?`), and whether it can repeat its atom more than once. */
function repeatAt(source: string, at: number): { end: number; repeats: boolean } | undefined {
  const char = source[at];
  const lazy = (end: number) => (source[end] === '?' ? end + 1 : end);
  if (char === '*' || char === '+') return { end: lazy(at + 1), repeats: true };
  if (char === '?') return { end: lazy(at + 1), repeats: false };
  if (char !== '{') return undefined;
  const count = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
  if (count === null) return undefined;
  const [text, , comma, max] = count;
  const repeats = comma !== undefined && (max === '' || Number(max) > 1);
  return { end: lazy(at + text.length), repeats };
}

/** Just past the `]` closing the class that opens at `at`. */
function classEnd(source: string, at: number): number {
  let index = at + 1;
  if (source[index] === '^') index++;
  // A `]` first in the class is literal only in other dialects; in JavaScript `[]` is an empty class.
  while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
  return index + 1;
}

/** Past `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` or `(?<name>`. */
function afterGroupOpener(source: string, at: number): number {
  if (source[at + 1] !== '?') return at + 1;
  const rest = source.slice(at + 2);
  const opener = /^(?::|=|!|<=|<!|<[^>]*>)/.exec(rest);
  return at + 2 + (opener?.[0].length ?? 0);
}
