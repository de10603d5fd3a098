import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Never removes its abort listener from the caller's signal: a long-lived signal collects one per run. */
class Run extends ToyRun {
  protected override unlisten(): void {}
}

export default toyRunMutant(
  import.meta.url,
  "leaves its abort listener on the caller's signal after the run",
  'no-listener-left-on-signal',
  Run,
);
