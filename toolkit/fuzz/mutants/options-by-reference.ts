import type { Disposer } from '../../../harness/runtime/disposer.js';
import { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentProvider, SubagentStartRequest } from '../../../providers/seam/types.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';
import { runtimeWithService, withStart } from './seam-runtime.js';

/** A seam that hands the provider the caller's own option objects: edits after start reach the child. */
class ByReference extends SubagentService {
  private caller: SubagentStartRequest | undefined;

  override registerProvider(provider: SubagentProvider): Disposer {
    const byReference = (request: Parameters<SubagentProvider['start']>[0]) =>
      provider.start({ ...request, ...(this.caller?.agentOptions ? { agentOptions: this.caller.agentOptions } : {}) });
    return super.registerProvider(withStart(provider, byReference));
  }

  override start(name: string, request: SubagentStartRequest) {
    this.caller = request;
    return super.start(name, request);
  }
}

export default mutant(import.meta.url, "passes the caller's start-time options by reference", 'start-options-copied', {
  create: toyFactory().create,
  createRuntime: (sessionsRoot) => runtimeWithService(sessionsRoot, ByReference),
});
