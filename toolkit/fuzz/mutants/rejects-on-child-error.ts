import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** A child-level failure rejects the result instead of settling it `error`. */
class Run extends ToyRun {
  protected override finish(): void {
    if (this.outcome === 'child-error') return this.fail(new Error(`toy child ${this.request.lineage} failed`));
    super.finish();
  }
}

export default toyRunMutant(import.meta.url, 'rejects the result on a child error', 'result-never-rejects', Run);
