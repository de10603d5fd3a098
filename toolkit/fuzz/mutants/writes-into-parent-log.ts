import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Notes each delegation in the parent's own session log: only the parent's tool call and result belong there. */
class Provider extends ToyProvider {
  override start(request: ResolvedStartRequest): Promise<SubagentRun> {
    request.parent.session.append({
      type: 'user/message',
      data: { content: [{ type: 'text', text: `delegated to ${request.lineage}` }] },
    });
    return super.start(request);
  }
}

export default toyMutant(
  import.meta.url,
  "appends to the parent's session log while starting a child",
  'parent-log-untouched',
  (ctx) => new Provider(ctx),
);
