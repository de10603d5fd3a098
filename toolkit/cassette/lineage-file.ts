import { join, relative, sep } from 'node:path';
import { lineagePath } from '../lineage/lineage-path.js';

export const CALLS_DIR = 'calls';
export const META_FILE = 'meta.json';

/** `main/call_1/c2` → `calls/main/call_1/c2.jsonl` (see `lineagePath`); `lineageOfFile` reverses it. */
export function lineageFile(lineage: string): string {
  return `${join(CALLS_DIR, ...lineagePath(lineage).split('/'))}.jsonl`;
}

/** Inverse of `lineageFile`, for a path relative to the cassette folder. */
export function lineageOfFile(file: string): string {
  const inside = relative(CALLS_DIR, file.replace(/\.jsonl$/, ''));
  return inside.split(sep).map(decodeURIComponent).join('/');
}
