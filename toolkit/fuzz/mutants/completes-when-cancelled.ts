import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** A cancelled run settles `completed` with what it had. */
class Run extends ToyRun {
  protected override abortedResult(): SubagentResult {
    return { output: this.streamedText, stopReason: 'completed' };
  }
}

export default toyRunMutant(import.meta.url, 'settles a cancelled run "completed"', 'cancel-settles-aborted', Run);
