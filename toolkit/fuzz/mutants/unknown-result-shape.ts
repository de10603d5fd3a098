import type { SubagentResult } from '../../../providers/seam/types.js';
import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Settles a completed run with a field the contract does not know. */
class Run extends ToyRun {
  protected override finalResult(): SubagentResult {
    return { ...super.finalResult(), exitCode: 0 } as SubagentResult;
  }
}

export default toyRunMutant(import.meta.url, 'settles results with an unknown field', 'result-known-shape', Run);
