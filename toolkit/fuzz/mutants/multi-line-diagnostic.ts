import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Puts a stack-like trace under the reason a cancelled run gives: a diagnostic is one line. */
class Run extends ToyRun {
  protected override abortedResult(reason: string): SubagentResult {
    return { ...super.abortedResult(reason), diagnostic: `${reason}\n    at ToyRun.stop (toy-provider.ts)` };
  }
}

export default toyRunMutant(
  import.meta.url,
  'gives a cancelled run a diagnostic of several lines',
  'errors-typed',
  Run,
);
