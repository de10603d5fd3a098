import type { Agent } from '../../../harness/agents/agent.js';
import { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentRun, SubagentStartRequest } from '../../../providers/seam/types.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';
import { runtimeWithService } from './seam-runtime.js';

/** A seam that never looks at the parent: a start for a disposed parent reaches the provider. */
class IgnoresDisposedParent extends SubagentService {
  override start(name: string, request: SubagentStartRequest): Promise<SubagentRun> {
    // Looks live to the service's check (and to the provider, which is the point: nobody refused it first).
    const live = Object.create(request.parent, { disposed: { value: false } }) as Agent;
    return super.start(name, { ...request, parent: live });
  }
}

export default mutant(
  import.meta.url,
  'a seam that hands the provider a start whose parent agent is already disposed',
  'refusal-before-provider',
  {
    create: toyFactory().create,
    createRuntime: (sessionsRoot) => runtimeWithService(sessionsRoot, IgnoresDisposedParent),
  },
);
