import { SubagentError } from '../../../providers/seam/errors.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** cancel() on a run that already settled throws instead of doing nothing. */
class Run extends ToyRun {
  override cancel(reason?: string): void {
    if (this.done) throw new SubagentError('INVALID_REQUEST', 'toy run already finished');
    super.cancel(reason);
  }
}

export default toyRunMutant(
  import.meta.url,
  'cancel() throws once the run has settled',
  'cancel-after-settle-harmless',
  Run,
);
