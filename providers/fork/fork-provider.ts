import type { Plugin } from '../../harness/runtime.js';
import { balancedPrefix } from '../../harness/session/balanced-prefix.js';
import { startInProcessRun, type InProcessHost } from '../inprocess/start-in-process-run.js';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownConfig } from '../seam/provider-config.js';
import { requireSubagents } from '../seam/subagent-service.js';
import { ALL_START_CAPABILITIES, type SubagentProvider } from '../seam/types.js';

export interface ForkProviderConfig {
  /** Registry name; default `fork`. */
  readonly name?: string;
}

/**
 * An in-process child seeded with the parent's completed turns. The parent's turn that is running
 * the delegation is still open (its tool call has no result) and is never inherited.
 */
export function createForkProvider(host: InProcessHost, name = 'fork'): SubagentProvider {
  return {
    name,
    capabilities: ALL_START_CAPABILITIES,
    inheritsParentContext: true,
    start: (request) => startInProcessRun(host, request, { seed: balancedPrefix(request.parent.session.events) }),
  };
}

const CONFIG_KEYS = optionKeys<ForkProviderConfig>({ name: true });

export const forkProvider: Plugin<ForkProviderConfig | void> = (scope, config) => {
  refuseUnknownConfig('fork', config, CONFIG_KEYS);
  const subagents = requireSubagents(scope.runtime, 'the fork provider');
  scope.add(subagents.registerProvider(createForkProvider(scope.runtime, config?.name)));
};
