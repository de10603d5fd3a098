import { createHash } from 'node:crypto';
import { canonicalJson } from '../../canonical/canonical-json.js';

/**
 * The id of a `functionCall` the API sent without one: derived from its name, its arguments and its
 * position among the calls of its answer, so the id read from a recorded answer and the id read
 * from the same call carried back in the next request are equal. Hex only: ids become lineage names.
 */
export function derivedCallId(name: string, args: unknown, position: number): string {
  const hash = createHash('sha256')
    .update(canonicalJson([name, args ?? {}, position]))
    .digest('hex');
  return `fc_${hash.slice(0, 16)}`;
}
