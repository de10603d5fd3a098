import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Writes the result of the parent's delegation call into the parent's log itself: that is the harness's to write. */
class Provider extends ToyProvider {
  override async start(request: ResolvedStartRequest): Promise<SubagentRun> {
    const run = await super.start(request);
    const { session } = request.parent;
    const open = session.events.findLast((event) => event.type === 'turn/start');
    const turn = open?.type === 'turn/start' ? open.data.turn : 1;
    if (!session.closed)
      session.append({
        type: 'tool/result',
        data: { turn, step: 1, id: 'call_delegate', output: `started ${request.lineage}`, isError: false },
      });
    return run;
  }
}

export default toyMutant(
  import.meta.url,
  "writes the result of the parent's delegation call into the parent's log",
  'parent-log-untouched',
  (ctx) => new Provider(ctx),
);
