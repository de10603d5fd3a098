import type { CassetteCall } from '../cassette/types.js';
import { DEFAULT_LINEAGE } from '../lineage/resolve-lineage.js';

/** MERGE-PENDING: replaced by the threading engine's derivation when issue 11 lands. */
export function deriveFixtureLineages(calls: readonly CassetteCall[], explicit: readonly (string | undefined)[]): string[] {
  return calls.map((_, i) => explicit[i] ?? DEFAULT_LINEAGE);
}
