import type { Logger } from '../../harness/runtime/logger.js';
import type { Plugin } from '../../harness/runtime/runtime.js';
import { requireSubagents } from '../seam/subagent-service.js';
import { NO_START_CAPABILITIES, type SubagentProvider } from '../seam/types.js';
import { resolveAcpProviderConfig, type AcpProviderConfig } from './acp-provider-config.js';
import { startAcpRun } from './start-acp-run.js';

export interface AcpProviderContext {
  readonly logger: Logger;
  /** The parent runtime's sessions root, handed to every child as NESTCAST_SESSIONS_ROOT. */
  readonly sessionsRoot: string;
  /** Default: process.env, read at each start. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * A provider that runs each child as a fresh ACP agent process. It offers no start-time
 * capability (the child is another program: its tools, depth and prompt are its own) and the
 * child never sees the parent's conversation.
 */
export function createAcpProvider(config: AcpProviderConfig, context: AcpProviderContext): SubagentProvider {
  const resolved = resolveAcpProviderConfig(config);
  return {
    name: resolved.name,
    capabilities: NO_START_CAPABILITIES,
    inheritsParentContext: false,
    start: (request) =>
      startAcpRun(request, { config: resolved, logger: context.logger, sessionsRoot: context.sessionsRoot, parentEnv: context.env ?? process.env }),
  };
}

/** Registers an ACP provider in the runtime's `subagents` service for the plugin's lifetime. */
export const acpProvider: Plugin<AcpProviderConfig> = (scope, config) => {
  const { runtime } = scope;
  const provider = createAcpProvider(config, { logger: runtime.logger, sessionsRoot: runtime.sessions.root });
  return requireSubagents(runtime, `acp provider "${provider.name}"`).registerProvider(provider);
};
