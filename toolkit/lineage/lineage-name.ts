import { pathSegmentProblem } from '../validation/path-segment.js';

/** Names an object already has: a lineage of that name used as a key would read or set them instead. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What is wrong with `lineage` as a session name, or `undefined`: the grammar is `/`-separated
 * segments, each a safe path segment (not empty, not `.` or `..`, no control character) and none
 * of `__proto__`, `constructor`, `prototype`. Lineages name files (`calls/<lineage>.jsonl`) and
 * are keys of the objects a recording is read into, and a replay serves only what they name.
 */
export function lineageNameProblem(lineage: string): string | undefined {
  for (const segment of lineage.split('/')) {
    if (PROTOTYPE_KEYS.has(segment)) return `"${segment}" is a name every JavaScript object already has`;
    const problem = pathSegmentProblem(segment);
    if (problem !== undefined) return `a part between slashes is not a name: ${problem}`;
  }
  return undefined;
}
