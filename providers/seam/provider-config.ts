import { unknownOption, type NestedOptionKeys } from '../../harness/option-keys.js';
import { SubagentError } from './errors.js';

/**
 * Refuses a provider plugin's config holding a key the plugin does not read (INVALID_CONFIG),
 * naming the one meant: `{ nmae: 'helper' }` registered the provider under its default name.
 */
export function refuseUnknownConfig(
  provider: string,
  config: unknown,
  known: readonly string[],
  nested: NestedOptionKeys = {},
): void {
  if (config === undefined || config === null) return;
  if (typeof config !== 'object' || Array.isArray(config))
    throw new SubagentError('INVALID_CONFIG', `${provider} provider config: must be an object, got ${typeof config}`);
  const unknown = unknownOption(config, known, '', nested);
  if (unknown !== undefined) throw new SubagentError('INVALID_CONFIG', `${provider} provider config: ${unknown}`);
}
