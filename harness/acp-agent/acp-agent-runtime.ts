import { DEFAULT_LINEAGE } from '../session/lineage.js';
import { CHILD_ENV } from './child-env.js';
import { nonBlank } from '../non-blank.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentOptions } from '../agents/types.js';
import { createOpenAICompatibleAdapter } from '../llm/openai-compatible/openai-compatible-adapter.js';
import type { Logger } from '../runtime/logger.js';
import { HarnessError } from '../errors.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import { Runtime } from '../runtime.js';
import { taskTools } from '../tasks/task-tools.js';
import { ModelStreamTap } from '../llm/model-stream-tap.js';

export interface AcpAgentRuntimeOptions {
  /** Read for NESTCAST_SESSIONS_ROOT, NESTCAST_LINEAGE and the model's DEEPSEEK_* settings. */
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** Where the model calls go out: recording and replay plug in here. Default: the global fetch. */
  readonly modelFetch?: typeof fetch;
}

/** What the ACP agent serves: a runtime, the lineage its session takes, and a tap on the model's stream. */
export interface AcpAgentRuntime {
  readonly runtime: Runtime;
  /** The lineage of the session `session/new` creates. */
  readonly lineage: string;
  /** Options of the agent each session gets. */
  readonly agentOptions: AgentOptions;
  readonly modelStream: ModelStreamTap;
}

/** The default sessions root when the parent did not pass NESTCAST_SESSIONS_ROOT. */
export const DEFAULT_SESSIONS_ROOT = join(homedir(), '.nestcast', 'sessions');

/** A misspelt `modelFetch` would send the model calls to the network instead of the replay meant. */
const RUNTIME_OPTION_KEYS = optionKeys<AcpAgentRuntimeOptions>({ env: true, logger: true, modelFetch: true });

/**
 * The runtime `nestcast acp-agent` serves: sessions under NESTCAST_SESSIONS_ROOT, the
 * OpenAI-compatible adapter with its DeepSeek env defaults, and the task tools. Extend it (load
 * plugins into `runtime`) before handing it to `runAcpAgent`.
 */
export function createAcpAgentRuntime(options: AcpAgentRuntimeOptions): AcpAgentRuntime {
  const unknown = unknownOption(options, RUNTIME_OPTION_KEYS);
  if (unknown !== undefined) throw new HarnessError('INVALID_RUNTIME_OPTIONS', `createAcpAgentRuntime: ${unknown}`);
  const { env, logger } = options;
  const runtime = new Runtime({
    sessionsRoot: resolve(nonBlank(env[CHILD_ENV.sessionsRoot]) ?? DEFAULT_SESSIONS_ROOT),
    logger,
  });
  const modelStream = new ModelStreamTap();
  runtime.llm.register(
    modelStream.wrap(
      createOpenAICompatibleAdapter({ env, ...(options.modelFetch ? { fetch: options.modelFetch } : {}) }),
    ),
  );
  for (const tool of taskTools(runtime.tasks)) runtime.tools.register(tool);
  return { runtime, lineage: nonBlank(env[CHILD_ENV.lineage]) ?? DEFAULT_LINEAGE, agentOptions: {}, modelStream };
}
