import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** A child that failed to start is handed over as a run anyway. */
class Provider extends ToyProvider {
  override async start(request: ResolvedStartRequest): Promise<SubagentRun> {
    if (this.ctx.outcomeOf(request.lineage) !== 'fail-start' || request.signal.aborted) return super.start(request);
    await this.ctx.scheduler.schedule(Promise.resolve(), `toy ${request.lineage}: ready (failed, handed over anyway)`);
    return this.makeRun(`toy-failed-${request.runId}`, request, 'complete' as ChildOutcome);
  }
}

export default toyMutant(
  import.meta.url,
  'resolves start for a child that failed to start',
  'failed-start-rejects',
  (ctx) => new Provider(ctx),
);
