import { ToyRun } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** dispose() resolves first; the child stops on a later scheduler step. */
class Run extends ToyRun {
  override dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      this.stop('toy run disposed');
      await this.settled.catch(() => undefined);
      void this.ctx.scheduler
        .schedule(Promise.resolve(), `toy ${this.request.lineage}: child stops, after dispose resolved`)
        .then(() => this.release());
    })());
  }
}

export default toyRunMutant(
  import.meta.url,
  'resolves dispose() before the child stops',
  'dispose-leaves-nothing-alive',
  Run,
);
