const MAX_DELTA = 8;

/** Splits text into word-sized deltas of at most a few characters, the way a model streams tokens. */
export function splitText(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  return words.flatMap((word) => {
    const pieces: string[] = [];
    for (let i = 0; i < word.length; i += MAX_DELTA) pieces.push(word.slice(i, i + MAX_DELTA));
    return pieces;
  });
}

/** Splits tool arguments into 2-4 fragments (1 when too short to split), as providers stream them. */
export function splitArguments(text: string): string[] {
  if (text.length < 2) return [text];
  const count = Math.min(4, Math.max(2, Math.ceil(text.length / 16)));
  const size = Math.ceil(text.length / count);
  const fragments: string[] = [];
  for (let i = 0; i < text.length; i += size) fragments.push(text.slice(i, i + size));
  return fragments;
}
