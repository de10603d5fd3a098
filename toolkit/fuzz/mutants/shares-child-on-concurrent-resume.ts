import type { SubagentRun } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Two resume() calls at once both get a run on the same child. */
class Run extends ToyRun {
  override async resume(content: string, signal: AbortSignal): Promise<SubagentRun> {
    await this.settled.catch(() => undefined);
    this.handedOver = true;
    return this.followUp(content, signal);
  }
}

export default toyRunMutant(
  import.meta.url,
  'hands the same child to two concurrent resume() calls',
  'resume-never-shared',
  Run,
);
