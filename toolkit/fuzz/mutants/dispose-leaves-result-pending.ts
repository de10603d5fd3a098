import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** dispose() releases the child but never settles a result that was still pending. */
class Run extends ToyRun {
  override dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      this.done = true;
      if (!this.handedOver) this.release();
    })());
  }
}

export default toyRunMutant(
  import.meta.url,
  'resolves dispose() with the result still pending',
  'dispose-settles-result',
  Run,
);
