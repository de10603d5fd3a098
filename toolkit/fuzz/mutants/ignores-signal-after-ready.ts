import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Never listens to the request signal once ready: only cancel() and dispose() stop it. */
class Run extends ToyRun {
  protected override listen(): void {}
}

export default toyRunMutant(
  import.meta.url,
  'ignores the request signal after ready',
  'cancel-and-signal-settle-result',
  Run,
);
