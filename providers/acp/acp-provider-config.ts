import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { errnoText } from '../../harness/error-text.js';
import { optionKeys, unknownOption } from '../../harness/option-keys.js';
import { SubagentError } from '../seam/errors.js';
import type { OpenAcpChannel } from './acp-channel.js';

/** How the provider answers a child's `session/request_permission`. */
export type PermissionPolicy = 'reject' | 'allow';

/** Where the child's stderr goes: straight to ours, or line by line into the runtime logger. */
export type ChildStderr = 'inherit' | 'log';

export interface AcpProviderConfig {
  /** Registry name. Default `acp`. */
  readonly name?: string;
  /** Executable started once per run (looked up on PATH). */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the scrubbed parent environment; the only way a key reaches the child. */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory. Default: the parent session header's cwd. Relative paths resolve against the launch directory at load. */
  readonly cwd?: string;
  /** `reject` (default) answers every permission request `cancelled`; `allow` selects the first allow option. */
  readonly permission?: PermissionPolicy;
  /** Budget for all of start-up: spawn, `initialize`, `session/new`. Default 10000. */
  readonly startupTimeoutMs?: number;
  /** A run with no frame from the child for this long ends `error`. Default 600000 (10 minutes); a request may ask for less or more. */
  readonly idleTimeoutMs?: number;
  /** How long dispose waits for the child to exit after closing its stdin. Default 6000. */
  readonly disposeEofGraceMs?: number;
  /** How long dispose waits after SIGTERM before SIGKILL. Default 3000. */
  readonly disposeTermGraceMs?: number;
  /** Default `inherit`. */
  readonly stderr?: ChildStderr;
  /** Opens each run's agent. Default: spawn `command` in its own process group. A protocol cassette replay passes its own. */
  readonly channel?: OpenAcpChannel;
  /**
   * Point the child's own model calls at a `nestcast serve` endpoint (or `startModelServer`),
   * under the child's lineage: its calls are recorded and replayed per session while its tools run
   * for real. Unset: the child talks to whatever its own configuration says.
   */
  readonly modelEndpoint?: ModelEndpoint;
}

/** Which variables point a child's model client at the endpoint, under its lineage. */
export interface ModelEndpoint {
  /** The endpoint's URL, `http://127.0.0.1:<port>` (`server.url`). */
  readonly url: string;
  /**
   * Each variable set to `<url>/lineage/<the child's lineage>` plus the path its client expects
   * there: `{ ANTHROPIC_BASE_URL: '', OPENAI_BASE_URL: '/v1' }`.
   */
  readonly baseUrlVariables: Readonly<Record<string, string>>;
  /** Variables set to a dummy key, for clients that refuse to start without one: `['ANTHROPIC_API_KEY']`. */
  readonly keyVariables?: readonly string[];
}

export interface ResolvedAcpProviderConfig {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly permission: PermissionPolicy;
  readonly startupTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly disposeEofGraceMs: number;
  readonly disposeTermGraceMs: number;
  readonly stderr: ChildStderr;
  readonly channel: OpenAcpChannel | undefined;
  readonly modelEndpoint: ModelEndpoint | undefined;
}

export const ACP_CONFIG_DEFAULTS = Object.freeze({
  name: 'acp',
  permission: 'reject' as PermissionPolicy,
  startupTimeoutMs: 10_000,
  idleTimeoutMs: 600_000,
  disposeEofGraceMs: 6_000,
  disposeTermGraceMs: 3_000,
  stderr: 'inherit' as ChildStderr,
});

/** Every key of the config, and of its `modelEndpoint`: a misspelt `modelEndpoint` would let the child call its own model. */
const CONFIG_KEYS = optionKeys<AcpProviderConfig>({
  name: true,
  command: true,
  args: true,
  env: true,
  cwd: true,
  permission: true,
  startupTimeoutMs: true,
  idleTimeoutMs: true,
  disposeEofGraceMs: true,
  disposeTermGraceMs: true,
  stderr: true,
  channel: true,
  modelEndpoint: true,
});
const ENDPOINT_KEYS = optionKeys<ModelEndpoint>({ url: true, baseUrlVariables: true, keyVariables: true });

/** The largest delay Node's timers honour; longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Validates the whole config at load time, so a typo fails when the plugin loads, not at the first delegation. */
export function resolveAcpProviderConfig(
  config: AcpProviderConfig,
  launchDir = process.cwd(),
): ResolvedAcpProviderConfig {
  const where = `acp provider "${typeof config.name === 'string' ? config.name : ACP_CONFIG_DEFAULTS.name}"`;
  const fail = (message: string): never => {
    throw new SubagentError('INVALID_CONFIG', `${where}: ${message}`);
  };
  if (typeof config !== 'object' || config === null) fail('config must be an object with at least `command`');
  const unknown = unknownOption(config, CONFIG_KEYS, '', { modelEndpoint: ENDPOINT_KEYS });
  if (unknown !== undefined) fail(unknown);
  const name = config.name ?? ACP_CONFIG_DEFAULTS.name;
  if (typeof name !== 'string' || name.trim() === '') fail('`name` must be a non-empty string');
  if (typeof config.command !== 'string' || config.command.trim() === '') {
    fail(
      '`command` must be a non-empty string naming the ACP agent to start (e.g. "nestcast" with args ["acp-agent"])',
    );
  }
  const args = config.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) fail('`args` must be an array of strings');
  const env = config.env ?? {};
  if (
    typeof env !== 'object' ||
    env === null ||
    Array.isArray(env) ||
    Object.values(env).some((value) => typeof value !== 'string')
  ) {
    fail('`env` must be an object of string values');
  }
  const permission = config.permission ?? ACP_CONFIG_DEFAULTS.permission;
  if (permission !== 'reject' && permission !== 'allow')
    fail(`\`permission\` must be "reject" or "allow", got ${JSON.stringify(permission)}`);
  const stderr = config.stderr ?? ACP_CONFIG_DEFAULTS.stderr;
  if (stderr !== 'inherit' && stderr !== 'log')
    fail(`\`stderr\` must be "inherit" or "log", got ${JSON.stringify(stderr)}`);
  if (config.channel !== undefined && typeof config.channel !== 'function')
    fail("`channel` must be a function that opens a run's ACP channel");
  const modelEndpoint = config.modelEndpoint === undefined ? undefined : checkModelEndpoint(config.modelEndpoint, fail);
  return {
    name,
    command: config.command,
    args: [...args],
    env: { ...env },
    cwd: config.cwd === undefined ? undefined : resolveConfiguredCwd(config.cwd, launchDir, fail),
    permission,
    stderr,
    startupTimeoutMs: timerDelayOption(
      config.startupTimeoutMs,
      'startupTimeoutMs',
      ACP_CONFIG_DEFAULTS.startupTimeoutMs,
      fail,
    ),
    idleTimeoutMs: timerDelayOption(config.idleTimeoutMs, 'idleTimeoutMs', ACP_CONFIG_DEFAULTS.idleTimeoutMs, fail),
    disposeEofGraceMs: timerDelayOption(
      config.disposeEofGraceMs,
      'disposeEofGraceMs',
      ACP_CONFIG_DEFAULTS.disposeEofGraceMs,
      fail,
    ),
    disposeTermGraceMs: timerDelayOption(
      config.disposeTermGraceMs,
      'disposeTermGraceMs',
      ACP_CONFIG_DEFAULTS.disposeTermGraceMs,
      fail,
    ),
    channel: config.channel,
    modelEndpoint,
  };
}

function checkModelEndpoint(endpoint: ModelEndpoint, fail: (message: string) => never): ModelEndpoint {
  if (typeof endpoint !== 'object' || endpoint === null)
    fail('`modelEndpoint` must be an object with `url` and `baseUrlVariables`');
  let url: URL | undefined;
  try {
    url = new URL(endpoint.url);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    fail(
      `\`modelEndpoint.url\` must be an http(s) URL (the endpoint's server.url), got ${JSON.stringify(endpoint.url)}`,
    );
  const variables: unknown = endpoint.baseUrlVariables;
  if (
    typeof variables !== 'object' ||
    variables === null ||
    Array.isArray(variables) ||
    Object.keys(variables).length === 0 ||
    Object.values(variables).some((suffix) => typeof suffix !== 'string')
  )
    fail(
      '`modelEndpoint.baseUrlVariables` must map at least one variable name to the path its client expects (`""`, `"/v1"`)',
    );
  const keys: unknown = endpoint.keyVariables ?? [];
  if (!Array.isArray(keys) || keys.some((name) => typeof name !== 'string'))
    fail('`modelEndpoint.keyVariables` must be an array of variable names');
  return {
    url: endpoint.url,
    baseUrlVariables: { ...endpoint.baseUrlVariables },
    keyVariables: [...(endpoint.keyVariables ?? [])],
  };
}

/** Whether `value` is a delay Node's timers honour: a positive number of ms up to about 24.8 days. */
export function isTimerDelay(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS;
}

function timerDelayOption(
  value: number | undefined,
  key: string,
  fallback: number,
  fail: (message: string) => never,
): number {
  if (value === undefined) return fallback;
  if (!isTimerDelay(value)) {
    fail(`\`${key}\` must be a positive number of milliseconds no greater than ${MAX_TIMER_MS}, got ${String(value)}`);
  }
  return value;
}

function resolveConfiguredCwd(cwd: string, launchDir: string, fail: (message: string) => never): string {
  if (typeof cwd !== 'string' || cwd === '')
    fail("`cwd` must be a non-empty path; omit it to use the parent session's cwd");
  const absolute = resolve(launchDir, cwd);
  const problem = directoryProblem(absolute);
  if (problem !== null) fail(`\`cwd\` ${JSON.stringify(cwd)} (${absolute}) ${problem}`);
  return absolute;
}

/** Why `path` cannot be a child's working directory, or null when it can. */
export function directoryProblem(path: string): string | null {
  if (!isAbsolute(path)) return 'is not an absolute path';
  try {
    return statSync(path).isDirectory() ? null : 'is not a directory';
  } catch (error) {
    return `is not an accessible directory (${errnoText(error)})`;
  }
}
