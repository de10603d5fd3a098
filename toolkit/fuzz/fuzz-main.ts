import { parseArgs } from 'node:util';
import { describeError } from '../../harness/error-text.js';
import { acpFactory } from './factories/acp-factory.js';
import { forkFactory, spawnFactory } from './factories/in-process-factories.js';
import { mockFactory } from './factories/mock-factory.js';
import { checkProviderLifecycle } from './check-provider-lifecycle.js';
import { formatCoverage } from './coverage.js';
import { formatConformanceFailure } from './format-failure.js';
import { FuzzError } from './fuzz-error.js';
import { loadProviderModule, looksLikeModule } from './load-provider-module.js';
import type { ProviderFactory } from './types.js';

/** The providers `nestcast fuzz` knows by name. */
export const FUZZ_PROVIDERS: Readonly<Record<string, ProviderFactory>> = { mock: mockFactory, spawn: spawnFactory, fork: forkFactory, acp: acpFactory };

const DEFAULT_RUNS: Readonly<Record<string, number>> = { mock: 1000, spawn: 1000, fork: 1000, acp: 25 };

export const FUZZ_HELP = `Usage: nestcast fuzz --provider <name | module path> [--runs N] [--seed=S --path P] [--timeout MS] [--coverage]

Throws interleavings of start, readiness, result, cancel, dispose, steering, resume, parent
teardown, provider removal and failing listeners at a subagent provider, each act fired at a
lifecycle point it observed (ready, first chunk, settled), under fast-check's scheduler, and checks
the ordering and cleanup promises of the subagent seam. A failure prints its seed, path and steps.

Options:
  --provider   ${Object.keys(FUZZ_PROVIDERS).join(', ')}, or the path of a module whose default
               export is your ProviderFactory (see docs/fuzzing.md)
  --runs       schedules to run (default: 1000; acp: 25). FUZZ_RUNS raises it.
  --seed=S     replay: the seed a failure printed (write --seed=S: seeds may be negative)
  --path       replay: the path a failure printed (with --seed)
  --timeout    per-schedule limit in milliseconds (default 10000)
  --coverage   print how many schedules reached each phase x act
  -h, --help   show this help

Exit code: 0 when every promise held, 1 when one broke, 2 for a usage mistake.`;

export interface FuzzIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const defaultIo: FuzzIo = { stdout: (text) => void process.stdout.write(text), stderr: (text) => void process.stderr.write(text) };

/** `nestcast fuzz`: runs the lifecycle suite on a built-in provider or one loaded from a module; returns the exit code. */
export async function fuzzMain(argv: readonly string[], io: FuzzIo = defaultIo): Promise<number> {
  let parsed;
  try {
    parsed = await parseCommand(argv);
  } catch (error) {
    io.stderr(`nestcast fuzz: ${describeError(error)}\n\n${FUZZ_HELP}\n`);
    return 2;
  }
  if (parsed === 'help') {
    io.stdout(`${FUZZ_HELP}\n`);
    return 0;
  }
  const { factory, coverage, ...options } = parsed;
  io.stdout(`fuzzing provider "${factory.name}" with ${options.runs} schedule(s)${options.seed === undefined ? '' : `, seed ${options.seed}`}${options.path === undefined ? '' : `, path ${options.path}`}\n`);
  const report = await checkProviderLifecycle(factory, options);
  if (coverage) io.stdout(`coverage (schedules reaching each act x phase):\n${formatCoverage(report.coverage)}\n`);
  if (!report.ok) {
    io.stderr(`${formatConformanceFailure(report)}\n`);
    return 1;
  }
  const rate = report.schedules / (report.elapsedMs / 1000);
  io.stdout(`ok: ${report.schedules} schedules kept every lifecycle promise (seed ${report.seed}, ${(report.elapsedMs / 1000).toFixed(1)} s, ${rate.toFixed(0)} schedules/s)\n`);
  return 0;
}

interface ParsedCommand {
  readonly factory: ProviderFactory;
  readonly rerunAs: string;
  readonly coverage: boolean;
  readonly runs: number;
  readonly seed?: number;
  readonly path?: string;
  readonly timeoutMs?: number;
}

async function parseCommand(argv: readonly string[]): Promise<ParsedCommand | 'help'> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      provider: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      timeout: { type: 'string' },
      coverage: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help === true) return 'help';
  if (positionals.length > 0) throw usage(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const name = values.provider;
  if (name === undefined) throw usage('--provider is required');
  const factory = FUZZ_PROVIDERS[name] ?? (looksLikeModule(name) ? await loadProviderModule(name) : undefined);
  if (factory === undefined) {
    throw new FuzzError('UNKNOWN_FUZZ_PROVIDER', `unknown provider ${JSON.stringify(name)}; known: ${Object.keys(FUZZ_PROVIDERS).join(', ')}, or the path of a module exporting a ProviderFactory`);
  }
  const runs = values.runs === undefined ? (DEFAULT_RUNS[name] ?? 1000) : integer('--runs', values.runs, 1);
  const seed = values.seed === undefined ? undefined : integer('--seed', values.seed, -(2 ** 31));
  const timeoutMs = values.timeout === undefined ? undefined : integer('--timeout', values.timeout, 1);
  if (values.path !== undefined && seed === undefined) throw usage('--path replays a failure only with the --seed printed beside it');
  return { factory, rerunAs: name, coverage: values.coverage === true, runs, ...(seed !== undefined ? { seed } : {}), ...(values.path !== undefined ? { path: values.path } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

function integer(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) throw usage(`${flag} must be an integer of at least ${min}, got ${JSON.stringify(text)}`);
  return value;
}

const usage = (message: string): FuzzError => new FuzzError('INVALID_FUZZ_OPTIONS', message);
