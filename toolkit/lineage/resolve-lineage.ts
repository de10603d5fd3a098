import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
import { currentLineage } from './lineage-scope.js';

/** Which session made a call: the `x-session-lineage` header, else `withLineage`, else `main`. */
export function resolveLineage(headers: Headers): string {
  const header = headers.get(LINEAGE_HEADER);
  if (header !== null && header !== '') return header;
  return currentLineage() ?? DEFAULT_LINEAGE;
}

/** The lineage a call names itself (header, else `withLineage`); `undefined` when its session is to be derived from content. */
export function explicitLineage(headers: Headers): string | undefined {
  const header = headers.get(LINEAGE_HEADER);
  if (header !== null && header !== '') return header;
  return currentLineage();
}
