import type { Plugin } from '../../harness/runtime.js';
import { startInProcessRun, type InProcessHost } from '../inprocess/start-in-process-run.js';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownConfig } from '../seam/provider-config.js';
import { requireSubagents } from '../seam/subagent-service.js';
import { ALL_START_CAPABILITIES, type SubagentProvider } from '../seam/types.js';

export interface SpawnProviderConfig {
  /** Registry name; default `spawn`. */
  readonly name?: string;
}

/** A fresh in-process child: its own session and system prompt, none of the parent's history. */
export function createSpawnProvider(host: InProcessHost, name = 'spawn'): SubagentProvider {
  return {
    name,
    capabilities: ALL_START_CAPABILITIES,
    inheritsParentContext: false,
    start: (request) => startInProcessRun(host, request),
  };
}

const CONFIG_KEYS = optionKeys<SpawnProviderConfig>({ name: true });

export const spawnProvider: Plugin<SpawnProviderConfig | void> = (scope, config) => {
  refuseUnknownConfig('spawn', config, CONFIG_KEYS);
  const subagents = requireSubagents(scope.runtime, 'the spawn provider');
  scope.add(subagents.registerProvider(createSpawnProvider(scope.runtime, config?.name)));
};
