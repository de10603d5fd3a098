/** One step of a drop path: a key, an index, or every element / key (`*`). */
export type PathStep = { readonly key: string } | { readonly index: number } | { readonly any: true };

/**
 * Parses `a.b[0]["odd key"][*].*` into steps; `undefined` when the text is not such a path.
 * The syntax is the one divergences are shown in, so a path copied from a mismatch message works.
 */
export function parsePath(path: string): PathStep[] | undefined {
  const steps: PathStep[] = [];
  const pattern = /\s*(?:\.?([A-Za-z_$][\w$]*)|\.?\*|\[(\d+)\]|\[\*\]|\[("(?:[^"\\]|\\.)*")\])/y;
  let at = 0;
  while (at < path.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(path);
    if (!match || (at === 0 && match[0].startsWith('.'))) return undefined;
    const [text, name, index, quoted] = match;
    if (name !== undefined) steps.push({ key: name });
    else if (index !== undefined) steps.push({ index: Number(index) });
    else if (quoted !== undefined) steps.push({ key: JSON.parse(quoted) as string });
    else steps.push({ any: true });
    at += text.length;
  }
  return steps.length === 0 ? undefined : steps;
}
