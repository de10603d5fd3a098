import { CassetteError } from '../errors/cassette-error.js';
import type { Cassette, CassetteCall } from './types.js';

/**
 * One cassette from several recordings of disjoint sessions, keeping the first one's provenance.
 * An out-of-process child records its sessions into a folder of its own; the parent merges them
 * into its recording and saves once, so each file has a single writer.
 */
export function mergeCassettes(first: Cassette, ...others: readonly Cassette[]): Cassette {
  const calls: Record<string, readonly CassetteCall[]> = { ...first.calls };
  for (const other of others) {
    for (const [lineage, sessionCalls] of Object.entries(other.calls)) {
      if (lineage in calls) {
        throw new CassetteError(
          'CASSETTE_INVALID',
          `Cannot merge recordings: session "${lineage}" was recorded twice${other.location === undefined ? '' : ` (again in ${other.location})`}. Each session must be recorded by exactly one process.`,
        );
      }
      calls[lineage] = sessionCalls;
    }
  }
  return { provenance: first.provenance, calls };
}
