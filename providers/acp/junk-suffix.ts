import type { JunkReport } from './frame-stream.js';

/** "; it also wrote 3 non-protocol stdout lines (120 bytes), the first: …", or nothing. */
export function junkSuffix(junk: JunkReport): string {
  if (junk.lines === 0) return '';
  return `; it also wrote ${junk.lines} non-protocol stdout line(s) (${junk.bytes} bytes, ignored), the first: ${JSON.stringify(junk.first)}`;
}
