import type { Logger } from '../../harness/runtime/logger.js';
import type { Plugin } from '../../harness/runtime.js';
import { requireSubagents } from '../seam/subagent-service.js';
import { NO_START_CAPABILITIES, type SubagentProvider } from '../seam/types.js';
import { AcpChildren } from './acp-children.js';
import { resolveAcpProviderConfig, type AcpProviderConfig } from './acp-provider-config.js';
// The ACP SDK loads with the first start, not with `nestcast/providers`: most users never start a child.
const loadStartAcpRun = async (): Promise<typeof import('./start-acp-run.js').startAcpRun> =>
  (await import('./start-acp-run.js')).startAcpRun;

export interface AcpProviderContext {
  readonly logger: Logger;
  /** The parent runtime's sessions root, handed to every child as NESTCAST_SESSIONS_ROOT. */
  readonly sessionsRoot: string;
  /** Default: process.env, read at each start. */
  readonly env?: NodeJS.ProcessEnv;
}

/** An acp provider; `dispose` aborts its starts (they reject `ABORTED`) and stops every child it still runs. */
export interface AcpProvider extends SubagentProvider {
  dispose(): Promise<void>;
}

/**
 * A provider that runs each child as a fresh ACP agent process. It offers no start-time
 * capability (the child is another program: its tools, depth and prompt are its own) and the
 * child never sees the parent's conversation.
 */
export function createAcpProvider(config: AcpProviderConfig, context: AcpProviderContext): AcpProvider {
  const resolved = resolveAcpProviderConfig(config);
  const children = new AcpChildren(resolved.name);
  return {
    name: resolved.name,
    capabilities: NO_START_CAPABILITIES,
    inheritsParentContext: false,
    start: (request) =>
      children.start(request.signal, async (signal) =>
        (await loadStartAcpRun())(
          request,
          {
            config: resolved,
            logger: context.logger,
            sessionsRoot: context.sessionsRoot,
            parentEnv: context.env ?? process.env,
          },
          signal,
          (run) => children.released(run),
        ),
      ),
    dispose: () => children.dispose(),
  };
}

/**
 * Registers an ACP provider in the runtime's `subagents` service for the plugin's lifetime.
 * Unloading it (or disposing the runtime) waits for starts in progress, which end `ABORTED`,
 * and for every child it still runs to be gone.
 */
export const acpProvider: Plugin<AcpProviderConfig> = (scope, config) => {
  const { runtime } = scope;
  const provider = createAcpProvider(config, { logger: runtime.logger, sessionsRoot: runtime.sessions.root });
  const unregister = requireSubagents(runtime, `acp provider "${provider.name}"`).registerProvider(provider);
  return async () => {
    await unregister();
    await provider.dispose();
  };
};
