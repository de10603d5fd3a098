import type { SubagentRun } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** The run resume() hands out never releases the child when disposed. */
class Run extends ToyRun {
  protected override followUp(content: string, signal: AbortSignal): SubagentRun {
    return new (class extends ToyRun {
      protected override release(): void {}
    })(this.id, { ...this.request, prompt: content, signal }, this.outcome, this.ctx, this.steering);
  }
}

export default toyRunMutant(
  import.meta.url,
  'the run from resume() leaks its child',
  'dispose-leaves-nothing-alive',
  Run,
);
