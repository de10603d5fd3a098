import { CassetteError } from '../errors/cassette-error.js';
import { lineageNameProblem } from './lineage-name.js';

/**
 * `main/call_1/c2` → `main/call_1/c2`, each segment percent-escaped (also `*`, `~` and a leading
 * dot) so any tool-call id is a safe, visible file name. Cassette and transcript files are named
 * by it; `decodeURIComponent` on each segment reverses it.
 */
export function lineagePath(lineage: string): string {
  const problem = lineageNameProblem(lineage);
  if (problem !== undefined) {
    throw new CassetteError(
      'LINEAGE_INVALID',
      `The session name ${JSON.stringify(lineage)} cannot name a file of the recording: ${problem}. ` +
        'A lineage is parent/child names (main/<tool call id>): give the session a lineage that follows it (x-session-lineage, withLineage), or fix the tool call id the script or model gave.',
    );
  }
  return lineage.split('/').map(escapeSegment).join('/');
}

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/[*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/^\./, '%2E');
}
