import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** run.cancel() before the child's first chunk is swallowed; the run carries on as if never cancelled (the signal still works). */
class Run extends ToyRun {
  override cancel(reason?: string): void {
    if (this.streamedText === '') return;
    super.cancel(reason);
  }
}

export default toyRunMutant(
  import.meta.url,
  'swallows a cancel that comes before the first chunk',
  'cancel-and-signal-settle-result',
  Run,
);
