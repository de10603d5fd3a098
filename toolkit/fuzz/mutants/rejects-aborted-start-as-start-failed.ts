import { SubagentError } from '../../../providers/seam/errors.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Releases a start-up cancelled by the signal, then reports it as a failure of the child (START_FAILED, not ABORTED). */
class Provider extends ToyProvider {
  protected override releaseCancelledStart(id: string): void {
    super.releaseCancelledStart(id);
    throw new SubagentError('START_FAILED', `toy child ${id} stopped during start-up`);
  }
}

export default toyMutant(
  import.meta.url,
  'rejects a start cancelled by its signal with START_FAILED instead of ABORTED',
  'start-rejection-code',
  (ctx) => new Provider(ctx),
);
