import type { Agent } from '../../harness/agents/agent.js';
import type { AgentOptions } from '../../harness/agents/types.js';
import type { Runtime } from '../../harness/runtime.js';
import { subagentsService, type SubagentService } from '../../providers/seam/subagent-service.js';
import { createScriptedRuntime, type ScriptedRuntime } from './scripted-runtime.js';

/** What a provider test acts on: the scripted runtime, its subagents service and a parent to start children from. */
export interface ProviderKit {
  readonly fx: ScriptedRuntime;
  readonly service: SubagentService;
  readonly parent: Agent;
}

export interface ProviderKitOptions {
  /** Loads the plugins under test (providers, the subagent tool) after the service and before the parent exists. */
  readonly load?: (runtime: Runtime) => Promise<unknown>;
  readonly parent?: AgentOptions;
}

/**
 * A scripted runtime with the subagents service, then whatever `load` adds, then a top-level
 * parent agent: the parent is made last so it sees every tool the plugins registered.
 */
export async function createProviderKit(options: ProviderKitOptions = {}): Promise<ProviderKit> {
  const fx = await createScriptedRuntime();
  await fx.runtime.use(subagentsService);
  await options.load?.(fx.runtime);
  const service = fx.runtime.find('subagents') as SubagentService;
  const parent = await fx.createAgent(options.parent);
  return { fx, service, parent };
}
