import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** A cancelled run settles `aborted` with empty output, though the child had streamed some. */
class Run extends ToyRun {
  protected override abortedResult(reason: string): SubagentResult {
    return { output: '', stopReason: 'aborted', diagnostic: reason };
  }
}

export default toyRunMutant(import.meta.url, 'drops the partial output when cancelled', 'partial-output-kept', Run);
