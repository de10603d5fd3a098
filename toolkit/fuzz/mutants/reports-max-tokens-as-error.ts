import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Maps every non-completed ending of its child to `error`: a token limit or a refusal loses its reason. */
class Run extends ToyRun {
  protected override finalResult(): SubagentResult {
    const result = super.finalResult();
    return result.stopReason === 'completed' ? result : { ...result, stopReason: 'error' };
  }
}

export default toyRunMutant(
  import.meta.url,
  "reports a child's max-tokens or refusal ending as error",
  'result-matches-child',
  Run,
);
