import { SubagentError } from '../../../providers/seam/errors.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** A second dispose() rejects instead of resolving with the first. */
class Run extends ToyRun {
  override dispose(): Promise<void> {
    if (this.disposal) return Promise.reject(new SubagentError('INVALID_REQUEST', 'toy run already disposed'));
    return super.dispose();
  }
}

export default toyRunMutant(import.meta.url, 'rejects a second dispose()', 'dispose-resolves', Run);
