import { describeError } from '../../../harness/error-text.js';
import { FuzzError } from '../../fuzz/fuzz-error.js';
import { DEFAULT_FUZZ_RUNS, FUZZ_PROVIDERS, runFuzz, type FuzzRun } from '../../fuzz/run-fuzz.js';
import { loadProviderModule, looksLikeModule } from '../../fuzz/load-provider-module.js';
import { UsageError, type Command } from '../command.js';
import { parseCommandLine } from '../parse.js';

const FUZZ_HELP = `Usage: nestcast fuzz --provider <name | module path> [--runs N] [--seed=S --path P] [--timeout MS] [--coverage]

Throws interleavings of start, readiness, result, cancel, dispose, steering, resume, parent
teardown, provider removal and failing listeners at a subagent provider, each act fired at a
lifecycle point it observed (ready, first chunk, settled), under fast-check's scheduler, and checks
the ordering and cleanup promises of the subagent seam. A failure prints its seed, path and steps.

Options:
  --provider   ${Object.keys(FUZZ_PROVIDERS).join(', ')}, or the path of a module whose default
               export is your ProviderFactory (see docs/fuzzing.md)
  --runs       schedules to run (default: 1000; acp: 100). FUZZ_RUNS raises it.
  --seed=S     replay: the seed a failure printed (write --seed=S: seeds may be negative)
  --path       replay: the path a failure printed (with --seed)
  --timeout    per-schedule limit in milliseconds (default 10000)
  --coverage   print how many schedules reached each phase x act, and each documented path
               (a path the provider claims that no schedule reached fails the run)
  -h, --help   show this help

Exit code: 0 when every promise held, 1 when one broke, 2 for a usage mistake.`;

export const fuzzCommand: Command = {
  name: 'fuzz',
  summary: 'Fuzz a subagent provider’s lifecycle ordering',
  help: FUZZ_HELP,
  async run(argv, io) {
    return runFuzz(await usageOnFailure(parseFuzzRun(argv)), io);
  },
};

/** Anything wrong before the suite starts (an option, an unknown provider, a module that does not load) is a usage mistake: exit 2, with the usage. */
async function usageOnFailure<T>(parsing: Promise<T>): Promise<T> {
  try {
    return await parsing;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError(describeError(error), { cause: error });
  }
}

async function parseFuzzRun(argv: readonly string[]): Promise<FuzzRun> {
  const { values, positionals } = parseCommandLine(argv, {
    provider: { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    timeout: { type: 'string' },
    coverage: { type: 'boolean' },
  });
  if (positionals.length > 0) throw usage(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const name = values.provider;
  if (name === undefined) throw usage('--provider is required');
  const factory = FUZZ_PROVIDERS[name] ?? (looksLikeModule(name) ? await loadProviderModule(name) : undefined);
  if (factory === undefined) {
    throw new FuzzError(
      'UNKNOWN_FUZZ_PROVIDER',
      `unknown provider ${JSON.stringify(name)}; known: ${Object.keys(FUZZ_PROVIDERS).join(', ')}, or the path of a module exporting a ProviderFactory`,
    );
  }
  const runs = values.runs === undefined ? (DEFAULT_FUZZ_RUNS[name] ?? 1000) : integer('--runs', values.runs, 1);
  const seed = values.seed === undefined ? undefined : integer('--seed', values.seed, -(2 ** 31));
  const timeoutMs = values.timeout === undefined ? undefined : integer('--timeout', values.timeout, 1);
  if (values.path !== undefined && seed === undefined)
    throw usage('--path replays a failure only with the --seed printed beside it');
  return {
    factory,
    rerunAs: name,
    coverage: values.coverage === true,
    runs,
    ...(seed !== undefined ? { seed } : {}),
    ...(values.path !== undefined ? { path: values.path } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

function integer(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min)
    throw usage(`${flag} must be an integer of at least ${min}, got ${JSON.stringify(text)}`);
  return value;
}

const usage = (message: string): FuzzError => new FuzzError('INVALID_FUZZ_OPTIONS', message);
