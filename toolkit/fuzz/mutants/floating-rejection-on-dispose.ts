import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Dispose starts a clean-up nobody awaits or catches: its failure floats as an unhandled rejection. */
class Run extends ToyRun {
  override dispose(): Promise<void> {
    void Promise.reject(new Error(`toy child ${this.request.lineage}: background clean-up failed`));
    return super.dispose();
  }
}

export default toyRunMutant(
  import.meta.url,
  'leaves a floating unhandled rejection behind on dispose',
  'no-unhandled-failures',
  Run,
);
