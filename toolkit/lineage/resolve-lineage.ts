import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { currentLineage } from './lineage-scope.js';

export const DEFAULT_LINEAGE = 'main';

/** Which session made a call: the `x-session-lineage` header, else `withLineage`, else `main`. */
export function resolveLineage(headers: Headers): string {
  const header = headers.get(LINEAGE_HEADER);
  if (header !== null && header !== '') return header;
  return currentLineage() ?? DEFAULT_LINEAGE;
}
