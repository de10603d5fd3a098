import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Edits the result object it handed out, once disposed. */
class Run extends ToyRun {
  override async dispose(): Promise<void> {
    await super.dispose();
    const result = (await this.settled) as { output: string };
    result.output = `${result.output} (cleaned up)`;
  }
}

export default toyRunMutant(
  import.meta.url,
  'changes the result object after the caller received it',
  'result-stays-put',
  Run,
);
