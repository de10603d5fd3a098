import fc from 'fast-check';

/**
 * Every way to cut `bytes` into consecutive non-empty chunks, as a network might deliver them:
 * single bytes, cuts inside a multi-byte UTF-8 character, inside `\r\n`, or no cut at all.
 * Concatenating the chunks always gives `bytes` back.
 */
export function sseSplitArbitrary(
  bytes: Uint8Array,
  constraints: { readonly maxCuts?: number } = {},
): fc.Arbitrary<Uint8Array[]> {
  if (bytes.length <= 1) return fc.constant(bytes.length === 0 ? [] : [bytes]);
  const maxLength = Math.min(bytes.length - 1, constraints.maxCuts ?? 64);
  return fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength }).map((cuts) => {
    const bounds = [0, ...cuts.sort((a, b) => a - b), bytes.length];
    return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end));
  });
}
