import type { Agent } from '../../harness/agents/agent.js';
import { HarnessError } from '../../harness/errors.js';
import type { Plugin, Runtime } from '../../harness/runtime.js';
import type { ToolDefinition, ToolExecution, ToolOutput } from '../../harness/tools/types.js';
import { requireSubagents, type SubagentService } from '../seam/subagent-service.js';
import type { SubagentProvider, SubagentStartRequest } from '../seam/types.js';
import { delegateInBackground } from './delegate-background.js';
import { delegateInForeground } from './delegate-foreground.js';
import { resolveToolConfig, type ResolvedToolConfig, type SubagentToolConfig } from './subagent-tool-config.js';
import { toolDescription, toolParameters } from './subagent-tool-wording.js';

interface SubagentToolArgs {
  readonly description: string;
  readonly prompt: string;
  readonly run_in_background?: unknown;
}

/** Tool names claimed by loaded subagent tool instances, per runtime, whether or not their provider is present yet. */
const claimedNames = new WeakMap<Runtime, Set<string>>();

/**
 * The model-facing `subagent` tool: one instance binds one provider and one tool name. The tool
 * exists only while its provider is registered, whatever order the plugins load in.
 */
export const subagentTool: Plugin<SubagentToolConfig> = (scope, rawConfig) => {
  const config = resolveToolConfig(rawConfig);
  const runtime = scope.runtime;
  const service = requireSubagents(runtime, `the "${config.toolName}" tool`);
  scope.add(claimToolName(runtime, config.toolName));

  let unmount: (() => void | Promise<void>) | undefined;
  const mount = (provider: SubagentProvider): void => {
    void unmount?.();
    unmount = runtime.tools.register(subagentToolDefinition(runtime, service, config, provider));
  };
  const dismount = (): void => {
    void unmount?.();
    unmount = undefined;
  };
  scope.on('subagent/provider-added', (provider) => {
    if (provider.name === config.provider) mount(provider);
  });
  scope.on('subagent/provider-removed', ({ name }) => {
    if (name === config.provider) dismount();
  });
  const present = service.getProvider(config.provider);
  if (present) mount(present);
  scope.add(dismount);
};

function claimToolName(runtime: Runtime, name: string): () => void {
  const claimed = claimedNames.get(runtime) ?? new Set<string>();
  claimedNames.set(runtime, claimed);
  if (claimed.has(name) || runtime.tools.has(name)) {
    throw new HarnessError(
      'DUPLICATE_TOOL',
      `a tool named "${name}" is already registered or claimed; give each subagentTool instance a distinct toolName`,
    );
  }
  claimed.add(name);
  return () => void claimed.delete(name);
}

function subagentToolDefinition(
  runtime: Runtime,
  service: SubagentService,
  config: ResolvedToolConfig,
  provider: SubagentProvider,
): ToolDefinition<never> {
  const tool: ToolDefinition<SubagentToolArgs> = {
    name: config.toolName,
    description: toolDescription(provider, config.enableRunInBackground),
    parameters: toolParameters(provider, config.enableRunInBackground),
    execute: (args, execution) => delegate(runtime, service, config, args, execution),
  };
  return tool as unknown as ToolDefinition<never>;
}

async function delegate(
  runtime: Runtime,
  service: SubagentService,
  config: ResolvedToolConfig,
  args: SubagentToolArgs,
  execution: ToolExecution,
): Promise<ToolOutput> {
  const background = args.run_in_background !== undefined && args.run_in_background !== false;
  if (background && !config.enableRunInBackground) {
    return {
      output: `Error: run_in_background is disabled for the "${config.toolName}" tool (enableRunInBackground: false); call it without that key`,
      isError: true,
    };
  }
  const parent = runtime.agents.get(execution.agentId);
  if (!parent)
    return {
      output: `Error: the "${config.toolName}" tool needs a calling agent; agent ${execution.agentId} is not registered`,
      isError: true,
    };
  if (execution.signal.aborted)
    return { output: 'Error: the tool call was aborted before the subagent started', isError: true };
  const request = startRequest(config, args, parent, execution);
  if (!background) return delegateInForeground(service, config.provider, { ...request, signal: execution.signal });
  return delegateInBackground({
    service,
    tasks: runtime.tasks,
    provider: config.provider,
    label: args.description,
    owner: parent.id,
    request,
  });
}

function startRequest(
  config: ResolvedToolConfig,
  args: SubagentToolArgs,
  parent: Agent,
  execution: ToolExecution,
): Omit<SubagentStartRequest, 'signal'> {
  return {
    prompt: args.prompt,
    parent,
    spawnedBy: execution.callId,
    label: args.description,
    ...(config.agentOptions ? { agentOptions: config.agentOptions } : {}),
    ...(config.persona !== undefined ? { persona: config.persona } : {}),
    ...(config.toolFilter ? { toolFilter: config.toolFilter } : {}),
    ...(config.outputSchema ? { outputSchema: config.outputSchema } : {}),
    ...(config.maxDepth !== undefined ? { maxDepth: config.maxDepth } : {}),
  };
}
