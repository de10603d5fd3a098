import { optionKeys, unknownOption } from '../../harness/option-keys.js';
import type { JsonSchema } from '../../harness/schema.js';
import type { ToolRestriction } from '../../harness/tools/types.js';
import { SubagentError } from '../seam/errors.js';
import { isValidMaxDepth, START_NESTED_KEYS } from '../seam/start-validation.js';
import type { ChildAgentOptions } from '../seam/types.js';

export interface SubagentToolConfig {
  /** The `subagents` provider this instance starts children on. */
  readonly provider: string;
  /** The model-facing tool name; distinct per instance. Default `subagent`. */
  readonly toolName?: string;
  /** Offer `run_in_background` to the model. Default true. */
  readonly enableRunInBackground?: boolean;
  readonly agentOptions?: ChildAgentOptions;
  /** Requires the provider's `persona` capability. */
  readonly persona?: string;
  /** Requires the provider's `toolFilter` capability. */
  readonly toolFilter?: ToolRestriction;
  /** Requires the provider's `outputSchema` capability: the child reports a value of this JSON Schema, and the tool returns it as JSON. */
  readonly outputSchema?: JsonSchema;
  /** Absolute cap on a child's depth (default 3), or `provider-managed` to send none (for providers without the capability). */
  readonly maxDepth?: number | 'provider-managed';
}

export interface ResolvedToolConfig extends Omit<
  SubagentToolConfig,
  'toolName' | 'enableRunInBackground' | 'maxDepth'
> {
  readonly toolName: string;
  readonly enableRunInBackground: boolean;
  readonly maxDepth: number | undefined;
}

export const DEFAULT_MAX_DEPTH = 3;

/** Every key of the config: a misspelt `toolFilter` or `maxDepth` would give every child every tool, or depth 3. */
const CONFIG_KEYS = optionKeys<SubagentToolConfig>({
  provider: true,
  toolName: true,
  enableRunInBackground: true,
  agentOptions: true,
  persona: true,
  toolFilter: true,
  outputSchema: true,
  maxDepth: true,
});

/** Checks the config when the plugin loads, so a mistake shows before the first delegation. */
export function resolveToolConfig(config: SubagentToolConfig): ResolvedToolConfig {
  const invalid = (what: string) => new SubagentError('INVALID_CONFIG', `subagentTool config: ${what}`);
  const unknown =
    typeof config === 'object' && config !== null
      ? unknownOption(config, CONFIG_KEYS, '', START_NESTED_KEYS)
      : undefined;
  if (unknown !== undefined) throw invalid(unknown);
  if (typeof config?.provider !== 'string' || config.provider === '')
    throw invalid('"provider" must name a subagent provider');
  const toolName = config.toolName ?? 'subagent';
  if (typeof toolName !== 'string' || toolName === '') throw invalid('"toolName" must be a non-empty string');
  const maxDepth = config.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (maxDepth !== 'provider-managed' && !isValidMaxDepth(maxDepth)) {
    throw invalid(`"maxDepth" must be a non-negative safe integer or 'provider-managed', got ${String(maxDepth)}`);
  }
  if (config.toolFilter && config.toolFilter.allow === undefined && config.toolFilter.deny === undefined) {
    throw invalid('"toolFilter" names neither allow nor deny; remove the key or fill the filter');
  }
  return {
    ...config,
    toolName,
    enableRunInBackground: config.enableRunInBackground ?? true,
    maxDepth: maxDepth === 'provider-managed' ? undefined : maxDepth,
  };
}
