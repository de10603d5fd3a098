import type { SessionLog } from '../../harness/session/index.js';
import { lineagePath } from '../lineage/lineage-path.js';

/** The folder of a recording (`recordings/<scenario>/`) that holds its expected transcripts. */
export const TRANSCRIPTS_DIR = 'transcripts';
/** Lists the transcript files in harvest order: the one place that order is written down. */
export const TRANSCRIPT_MANIFEST = 'sessions.json';

/**
 * Each session's file, relative to the transcripts folder and `/`-separated: lineage
 * `main/call_1` → `main/call_1.jsonl` (see `lineagePath`); the k-th session (k ≥ 2) sharing a
 * lineage gets `~k` before `.jsonl` (`~` is always escaped inside a segment).
 */
export function transcriptFiles(sessions: readonly SessionLog[]): string[] {
  const seen = new Map<string, number>();
  return sessions.map(({ header }) => {
    const count = (seen.get(header.lineage) ?? 0) + 1;
    seen.set(header.lineage, count);
    const path = lineagePath(header.lineage);
    return `${path}${count === 1 ? '' : `~${count}`}.jsonl`;
  });
}
