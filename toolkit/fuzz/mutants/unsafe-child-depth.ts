import type { Agent } from '../../../harness/agents/agent.js';
import type { Disposer } from '../../../harness/runtime/disposer.js';
import { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentProvider, SubagentRun, SubagentStartRequest } from '../../../providers/seam/types.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';
import { runtimeWithService, withStart } from './seam-runtime.js';

/** A seam that computes the child's depth as parent + 1 without checking it stays a safe integer. */
class UncheckedDepth extends SubagentService {
  private readonly depths = new Map<string, number>();

  override registerProvider(provider: SubagentProvider): Disposer {
    return super.registerProvider(
      withStart(provider, (request) =>
        provider.start({ ...request, depth: this.depths.get(request.lineage) ?? request.depth }),
      ),
    );
  }

  override start(name: string, request: SubagentStartRequest): Promise<SubagentRun> {
    const parent = request.parent;
    if (Number.isSafeInteger(parent.depth + 1)) return super.start(name, request);
    // Looks shallow to the real check; the provider then gets the unsafe depth.
    const shallow = Object.create(parent, { depth: { value: 0 } }) as Agent;
    this.depths.set(`${parent.lineage}/${request.spawnedBy ?? ''}`, parent.depth + 1);
    return super.start(name, { ...request, parent: shallow });
  }
}

export default mutant(
  import.meta.url,
  'hands the provider a child depth that is not a safe integer',
  'refusal-before-provider',
  {
    create: toyFactory().create,
    createRuntime: (sessionsRoot) => runtimeWithService(sessionsRoot, UncheckedDepth),
  },
);
