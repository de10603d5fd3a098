/**
 * `main/call_1/c2` → `main/call_1/c2`, each segment percent-escaped (also `*`, `~` and a leading
 * dot) so any tool-call id is a safe, visible file name. Cassette and transcript files are named
 * by it; `decodeURIComponent` on each segment reverses it.
 */
export function lineagePath(lineage: string): string {
  return lineage.split('/').map(escapeSegment).join('/');
}

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/[*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/^\./, '%2E');
}
