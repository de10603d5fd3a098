import { join, relative, sep } from 'node:path';

export const CALLS_DIR = 'calls';
export const META_FILE = 'meta.json';

/**
 * `main/call_1/c2` → `calls/main/call_1/c2.jsonl`. Each segment is percent-escaped (also `*`
 * and a leading dot) so any id is a safe, visible file name; `lineageOfFile` reverses it.
 */
export function lineageFile(lineage: string): string {
  const segments = lineage.split('/').map(escapeSegment);
  return `${join(CALLS_DIR, ...segments)}.jsonl`;
}

/** Inverse of `lineageFile`, for a path relative to the cassette folder. */
export function lineageOfFile(file: string): string {
  const inside = relative(CALLS_DIR, file.replace(/\.jsonl$/, ''));
  return inside.split(sep).map(decodeURIComponent).join('/');
}

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/\*/g, '%2A').replace(/^\./, '%2E');
}
