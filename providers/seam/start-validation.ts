import { messageOf } from '../../harness/error-text.js';
import { optionKeys, unknownOption, type NestedOptionKeys } from '../../harness/option-keys.js';
import { compileSchema, type JsonSchema } from '../../harness/schema.js';
import { TOOL_RESTRICTION_KEYS } from '../../harness/tools/restriction-keys.js';
import { SubagentError } from './errors.js';
import type {
  ChildAgentOptions,
  StartCapability,
  SubagentCapabilities,
  SubagentProvider,
  SubagentStartRequest,
} from './types.js';

/** The order the service checks requested start-time capabilities in. */
const CAPABILITY_ORDER: readonly StartCapability[] = ['outputSchema', 'maxDepth', 'toolFilter', 'persona'];

/** Refuses a request that needs a start-time capability the provider (registered with `capabilities`) does not advertise. */
export function assertCapabilities(
  name: string,
  capabilities: SubagentCapabilities,
  request: SubagentStartRequest,
): void {
  for (const capability of CAPABILITY_ORDER) {
    if (request[capability] === undefined || capabilities[capability]) continue;
    throw new SubagentError(
      'UNSUPPORTED_CAPABILITY',
      `subagent provider "${name}" does not support the "${capability}" capability; ` +
        `drop "${capability}" from the request or use a provider that advertises it`,
    );
  }
}

/** Whether `value` is a cap `maxDepth` may take: a non-negative safe integer (not -0). */
export function isValidMaxDepth(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
}

/** Every field of a start request: a misspelt `toolFilter` would start a child with every tool. */
const REQUEST_KEYS = optionKeys<SubagentStartRequest>({
  prompt: true,
  parent: true,
  signal: true,
  spawnedBy: true,
  label: true,
  agentOptions: true,
  outputSchema: true,
  maxDepth: true,
  toolFilter: true,
  persona: true,
  idleTimeoutMs: true,
});
const AGENT_OPTION_KEYS = optionKeys<ChildAgentOptions>({
  adapter: true,
  model: true,
  maxSteps: true,
  maxTokens: true,
});

/** The options objects inside a start request (and a subagent tool's config) and their keys. */
export const START_NESTED_KEYS: NestedOptionKeys = {
  agentOptions: AGENT_OPTION_KEYS,
  toolFilter: TOOL_RESTRICTION_KEYS,
};

/** Refuses a request whose fields are malformed or unknown, before any provider sees it. */
export function assertWellFormed(provider: SubagentProvider, request: SubagentStartRequest): void {
  const invalid = (what: string) =>
    new SubagentError('INVALID_REQUEST', `subagent start on provider "${provider.name}": ${what}`);
  const unknown = unknownOption(request, REQUEST_KEYS, '', START_NESTED_KEYS);
  if (unknown !== undefined) throw invalid(unknown);
  if (typeof request.prompt !== 'string') throw invalid('prompt must be a string');
  if (!(request.signal instanceof AbortSignal))
    throw invalid('signal is required (an AbortSignal that cancels the run)');
  if (request.maxDepth !== undefined && !isValidMaxDepth(request.maxDepth)) {
    throw invalid(`maxDepth must be a non-negative safe integer, got ${String(request.maxDepth)}`);
  }
  if (request.spawnedBy !== undefined && (request.spawnedBy === '' || request.spawnedBy.includes('/'))) {
    throw invalid(
      `spawnedBy ${JSON.stringify(request.spawnedBy)} must be non-empty and contain no '/' (it names the child's lineage)`,
    );
  }
  if (request.outputSchema !== undefined) {
    const problem = outputSchemaProblem(request.outputSchema);
    if (problem !== null) throw invalid(`unsupported output schema: ${problem}`);
  }
}

/**
 * Deep copies of the start-time options a caller could mutate after `start` (a tool filter widened,
 * a schema loosened): the provider sees them as they were when the request was checked.
 */
export function startTimeCopies(
  provider: SubagentProvider,
  request: SubagentStartRequest,
): Pick<SubagentStartRequest, 'outputSchema' | 'toolFilter' | 'agentOptions'> {
  const copy = <T>(field: 'outputSchema' | 'toolFilter' | 'agentOptions', value: T): T => {
    try {
      return deepFrozen(structuredClone(value));
    } catch (error) {
      throw new SubagentError(
        'INVALID_REQUEST',
        `subagent start on provider "${provider.name}": ${field} must be plain data (it is copied at start): ${messageOf(error)}`,
        { cause: error },
      );
    }
  };
  return {
    ...(request.outputSchema !== undefined ? { outputSchema: copy('outputSchema', request.outputSchema) } : {}),
    ...(request.toolFilter !== undefined ? { toolFilter: copy('toolFilter', request.toolFilter) } : {}),
    ...(request.agentOptions !== undefined ? { agentOptions: copy('agentOptions', request.agentOptions) } : {}),
  };
}

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFrozen(item);
    Object.freeze(value);
  }
  return value;
}

/** Why `schema` is outside the supported subset (object-rooted, plain JSON, compiles with ajv), or null. */
export function outputSchemaProblem(schema: unknown): string | null {
  if (!isPlainObject(schema)) return 'it must be a JSON Schema object';
  if (schema['type'] !== 'object')
    return `its root must be {"type": "object", ...}, got type ${JSON.stringify(schema['type'])}`;
  const nonJson = nonJsonPath(schema, '(root)');
  if (nonJson !== null) return `it holds a value JSON cannot represent at ${nonJson}`;
  try {
    compileSchema(schema as JsonSchema);
  } catch (error) {
    return `ajv cannot compile it: ${messageOf(error)}`;
  }
  return null;
}

function nonJsonPath(value: unknown, path: string): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonJsonPath(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = nonJsonPath(item, `${path}.${key}`);
      if (found !== null) return found;
    }
    return null;
  }
  return path;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
