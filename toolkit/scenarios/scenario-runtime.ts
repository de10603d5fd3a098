import { ModelStreamTap } from '../../harness/llm/model-stream-tap.js';
import { createOpenAICompatibleAdapter } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';
import type { Logger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime.js';
import { taskTools } from '../../harness/tasks/task-tools.js';
import { forkProvider } from '../../providers/fork/fork-provider.js';
import { subagentsService } from '../../providers/seam/subagent-service.js';
import { spawnProvider } from '../../providers/spawn/spawn-provider.js';
import { subagentTool } from '../../providers/tool/subagent-tool.js';
import { secretWriteGuard } from '../secrets/scan-before-write.js';
import { nestcastCliCommand } from './locate-cli.js';
import type { ModelSource } from './model-source.js';
import type { ScenarioDefinition, ScenarioProvider } from './types.js';

export interface ScenarioRuntime {
  readonly runtime: Runtime;
  /** Sees every model event as it streams, per lineage (cancel triggers watch it). */
  readonly modelStream: ModelStreamTap;
}

/**
 * The runtime a scenario runs in: the real OpenAI-compatible adapter over the run's model fetch,
 * the subagents service, the scenario's providers and subagent tools, its plain tools and the task tools.
 */
export async function buildScenarioRuntime(
  scenario: ScenarioDefinition,
  options: { readonly sessionsRoot: string; readonly source: ModelSource; readonly logger: Logger },
): Promise<ScenarioRuntime> {
  // Session logs in the work folder are files nestcast writes too: a line holding a known secret is refused.
  const runtime = new Runtime({
    sessionsRoot: options.sessionsRoot,
    logger: options.logger,
    beforeWrite: secretWriteGuard(),
    // The work folder is removed after the run; what outlives it is harvested into the recording.
    durableSessions: false,
  });
  const modelStream = new ModelStreamTap();
  const { source } = options;
  runtime.llm.register(
    modelStream.wrap(
      createOpenAICompatibleAdapter({
        baseUrl: source.baseUrl,
        ...(source.apiKey !== undefined ? { apiKey: source.apiKey } : {}),
        // Every session sends the scenario's model, never a default another API does not serve.
        ...((scenario.agent?.model ?? source.model) !== undefined
          ? { model: scenario.agent?.model ?? source.model }
          : {}),
        fetch: source.fetch,
        // The process environment is never read: in replay a key there must not matter.
        env: {},
      }),
    ),
  );
  await runtime.use(subagentsService);
  for (const provider of scenario.providers ?? []) await loadProvider(runtime, provider, source);
  for (const tool of scenario.subagentTools ?? []) {
    await runtime.use(subagentTool, {
      provider: tool.provider,
      ...(tool.toolName !== undefined ? { toolName: tool.toolName } : {}),
      ...(tool.enableRunInBackground !== undefined ? { enableRunInBackground: tool.enableRunInBackground } : {}),
      ...(tool.maxDepth !== undefined ? { maxDepth: tool.maxDepth } : {}),
      ...(tool.persona !== undefined ? { persona: tool.persona } : {}),
      ...(tool.toolFilter !== undefined ? { toolFilter: tool.toolFilter } : {}),
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    });
  }
  for (const tool of scenario.tools ?? []) runtime.tools.register(tool);
  for (const tool of taskTools(runtime.tasks)) runtime.tools.register(tool);
  return { runtime, modelStream };
}

async function loadProvider(runtime: Runtime, provider: ScenarioProvider, source: ModelSource): Promise<void> {
  switch (provider.kind) {
    case 'spawn':
      await runtime.use(spawnProvider, provider.name !== undefined ? { name: provider.name } : undefined);
      return;
    case 'fork':
      await runtime.use(forkProvider, provider.name !== undefined ? { name: provider.name } : undefined);
      return;
    case 'acp': {
      // Loaded here: the ACP SDK and its schemas cost every process that never starts an ACP child ~0.2 s.
      const { acpProvider } = await import('../../providers/acp/acp-provider.js');
      const cli = nestcastCliCommand();
      const channel = source.acpChannel(provider.cassette ?? 'model-calls');
      await runtime.use(acpProvider, {
        ...(provider.name !== undefined ? { name: provider.name } : {}),
        command: provider.command ?? cli.command,
        args: provider.args ? [...provider.args] : [...cli.args, 'acp-agent'],
        env: { ...source.childEnv() },
        ...(provider.permission !== undefined ? { permission: provider.permission } : {}),
        channel,
        stderr: 'log',
        disposeEofGraceMs: 5_000,
        disposeTermGraceMs: 2_000,
      });
      return;
    }
  }
}
