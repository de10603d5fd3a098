import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Lowers the parent agent's own step budget to make room for its child: the caller's agent is not the provider's to edit. */
class Provider extends ToyProvider {
  override start(request: ResolvedStartRequest): Promise<SubagentRun> {
    Object.assign(request.parent.options, { maxSteps: 4 });
    return super.start(request);
  }
}

export default toyMutant(
  import.meta.url,
  "changes the parent agent's options while starting a child",
  'caller-request-unchanged',
  (ctx) => new Provider(ctx),
);
