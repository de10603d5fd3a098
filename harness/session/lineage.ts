import { HarnessError } from '../errors.js';

/** The lineage of a root session, and of any call that names none. */
export const DEFAULT_LINEAGE = 'main';

/** Why `lineage` is not a valid lineage (`main`, `main/call_1`, ...), or null when it is. */
export function lineageProblem(lineage: unknown): string | null {
  if (typeof lineage !== 'string') return `lineage must be a string, got ${typeof lineage}`;
  const segments = lineage.split('/');
  const empty = segments.findIndex((segment) => segment.length === 0);
  if (empty !== -1) {
    return `lineage ${JSON.stringify(lineage)} has an empty segment (#${empty + 1}); segments are joined by single '/'`;
  }
  return null;
}

/** The lineage of a child session: `<parent lineage>/<spawnedBy>`. */
export function childLineage(parentLineage: string, spawnedBy: string): string {
  const parentProblem = lineageProblem(parentLineage);
  if (parentProblem !== null) {
    throw new HarnessError('INVALID_SESSION_OPTIONS', `Cannot derive a child lineage: ${parentProblem}.`);
  }
  if (spawnedBy.length === 0 || spawnedBy.includes('/')) {
    throw new HarnessError(
      'INVALID_SESSION_OPTIONS',
      `Cannot derive a child lineage of ${JSON.stringify(parentLineage)}: spawnedBy ${JSON.stringify(spawnedBy)} must be ` +
        `non-empty and contain no '/'. Pass the id of the tool call that started the child, or ordinalSpawnedBy(n).`,
    );
  }
  return `${parentLineage}/${spawnedBy}`;
}

/** `spawnedBy` for the n-th (1-based) child of a parent when no tool call started it. */
export function ordinalSpawnedBy(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new HarnessError(
      'INVALID_SESSION_OPTIONS',
      `ordinalSpawnedBy needs a 1-based child number, got ${String(n)}.`,
    );
  }
  return `c${n}`;
}
