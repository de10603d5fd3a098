import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Steering accepted while the child takes its final step is never delivered (nor refused). */
class Run extends ToyRun {
  protected override deliverSteering(): void {
    this.steering.length = 0;
  }
}

export default toyRunMutant(
  import.meta.url,
  'accepts steering during the final step and drops it',
  'steering-delivered-or-refused',
  Run,
);
