import type { RecordedAmbiguity } from '../cassette/types.js';
import type { Paint } from './io.js';

/** How `inspect` and `record` show a child filed under the first of several equal tool calls. */
export function ambiguityLines(ambiguities: readonly RecordedAmbiguity[], p: Paint, indent = '  '): string[] {
  return ambiguities.flatMap((ambiguity) => {
    const calls = ambiguity.candidates.map((call) => `${call.name} call ${call.id} of "${call.lineage}"`).join(' and ');
    return [
      `${indent}${p.bold('AMBIGUOUS_CHILD')} session "${ambiguity.lineage}" matched ${calls} equally and was filed under the first.`,
      `${indent}  Fix: give those calls different arguments, or name the child with the x-session-lineage header or withLineage.`,
    ];
  });
}
