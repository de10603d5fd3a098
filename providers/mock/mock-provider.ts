import { setTimeout as delay } from 'node:timers/promises';
import type { Plugin } from '../../harness/runtime.js';
import { optionKeys } from '../../harness/option-keys.js';
import { SubagentError } from '../seam/errors.js';
import { refuseUnknownConfig } from '../seam/provider-config.js';
import { requireSubagents } from '../seam/subagent-service.js';
import {
  ALL_START_CAPABILITIES,
  type ResolvedStartRequest,
  type SubagentCapabilities,
  type SubagentProvider,
  type SubagentRun,
} from '../seam/types.js';
import { MockRun } from './mock-run.js';
import { MockScript } from './mock-script.js';

export interface MockProviderConfig {
  readonly script: MockScript;
  /** Registry name; default `mock`. */
  readonly name?: string;
  /** Default: every start-time capability. */
  readonly capabilities?: SubagentCapabilities;
  /** Default false. */
  readonly inheritsParentContext?: boolean;
}

const CONFIG_KEYS = optionKeys<MockProviderConfig>({
  script: true,
  name: true,
  capabilities: true,
  inheritsParentContext: true,
});
/** Every start-time capability, as the seam defines them. */
const CAPABILITY_KEYS = Object.keys(ALL_START_CAPABILITIES);

/** A provider that does what its script says, for testing the seam and its consumers. */
export function createMockProvider(config: MockProviderConfig): SubagentProvider {
  refuseUnknownConfig('mock', config, CONFIG_KEYS, { capabilities: CAPABILITY_KEYS });
  if (!(config?.script instanceof MockScript))
    throw new SubagentError(
      'INVALID_CONFIG',
      'mock provider config: "script" must be a mockScript([...]) or mockScript(chooser)',
    );
  const name = config.name ?? 'mock';
  const script = config.script;
  return {
    name,
    capabilities: config.capabilities ?? ALL_START_CAPABILITIES,
    inheritsParentContext: config.inheritsParentContext ?? false,
    start: async (request: ResolvedStartRequest): Promise<SubagentRun> => {
      const behaviour = script.take(request);
      const call = script.starts;
      try {
        if (request.signal.aborted) throw aborted(name, request);
        if (behaviour.kind === 'fail-start') {
          await wait(behaviour.afterMs, request, name);
          throw new SubagentError(
            'START_FAILED',
            `mock provider "${name}": ${behaviour.message ?? `start #${call} fails as scripted`}`,
          );
        }
        await wait('readyAfterMs' in behaviour ? behaviour.readyAfterMs : undefined, request, name);
        // The parent went away while start-up was pending: no child for it.
        if (request.parent.disposed) {
          throw new SubagentError(
            'PARENT_DISPOSED',
            `mock provider "${name}": the parent ${request.parent.lineage} of ${request.lineage} was disposed during start-up`,
          );
        }
      } catch (error) {
        script.released();
        throw error;
      }
      return new MockRun(`mock-${name}-${call}`, behaviour, request.signal, () => script.released());
    },
  };
}

export const mockProvider: Plugin<MockProviderConfig> = (scope, config) => {
  const subagents = requireSubagents(scope.runtime, 'the mock provider');
  scope.add(subagents.registerProvider(createMockProvider(config)));
};

async function wait(ms: number | undefined, request: ResolvedStartRequest, name: string): Promise<void> {
  if (ms === undefined) return;
  try {
    await delay(ms, undefined, { signal: request.signal });
  } catch (error) {
    throw aborted(name, request, error);
  }
}

function aborted(name: string, request: ResolvedStartRequest, cause: unknown = request.signal.reason): SubagentError {
  return new SubagentError(
    'ABORTED',
    `mock provider "${name}": start of ${request.lineage} was cancelled before it was ready`,
    { cause },
  );
}
