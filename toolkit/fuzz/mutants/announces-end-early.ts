import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Hands its first reader (the service, which announces the end) a result of its own, settled at once. */
class Run extends ToyRun {
  private early: Promise<SubagentResult> | undefined;

  override get result(): Promise<SubagentResult> {
    if (this.early === undefined)
      return (this.early = Promise.resolve({ output: 'announced early', stopReason: 'completed' }));
    return this.settled;
  }
}

export default toyRunMutant(
  import.meta.url,
  'emits subagent/end before its run has ended',
  'end-reports-the-result',
  Run,
);
