/** How many names a message lists before it counts the rest: enough to spot a typo, few enough to read. */
export const NAMES_SHOWN = 20;

/**
 * `names` joined for a message: all of them when they are few, else `NAMES_SHOWN` of them and how
 * many were left out. With `near` (a lineage), those sharing the most leading `/` segments with it
 * are kept (its parent and siblings before distant roots); otherwise the first ones. Kept names stay
 * in their given order. Empty when `names` is: the caller says "none" in its own words.
 */
export function namedList(names: readonly string[], near?: string): string {
  if (names.length <= NAMES_SHOWN) return names.join(', ');
  const kept =
    near === undefined ? names.slice(0, NAMES_SHOWN) : nearest(names, near.split('/')).map((index) => names[index]);
  return `${kept.join(', ')}, … and ${(names.length - NAMES_SHOWN).toLocaleString('en-US')} more`;
}

/** Indices of the `NAMES_SHOWN` names nearest `segments`, in their given order. */
function nearest(names: readonly string[], segments: readonly string[]): number[] {
  const shared = names.map((name) => sharedSegments(name.split('/'), segments));
  return names
    .map((_, index) => index)
    .sort((a, b) => (shared[b] as number) - (shared[a] as number) || a - b)
    .slice(0, NAMES_SHOWN)
    .sort((a, b) => a - b);
}

function sharedSegments(a: readonly string[], b: readonly string[]): number {
  let count = 0;
  while (count < a.length && count < b.length && a[count] === b[count]) count++;
  return count;
}
