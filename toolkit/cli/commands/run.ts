import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { assertNoNetworkEscapes } from '../../guard/assert-no-network-escapes.js';
import type { ReplayTiming } from '../../replay/replay-timing.js';
import { listScenarioFiles, listScenarios } from '../../scenarios/load-scenarios.js';
import { ScenarioError } from '../../scenarios/scenario-error.js';
import {
  narrowScenarios,
  parseGrep,
  parseShard,
  selectScenarios,
  type Shard,
} from '../../scenarios/select-scenarios.js';
import { REPORTERS } from '../reporters/index.js';
import { UsageError, type Command } from '../command.js';
import type { CliIo } from '../io.js';
import { writeCiReport, type CiReport } from '../ci-report.js';
import { runWithoutKeys } from '../clean-exit-run.js';
import { parseCommandLine } from '../parse.js';
import { parseTimeoutOption, requireScenarios } from '../scenario-selection.js';
import { allToVerdicts, assertNoLostWorkers } from '../workers/all-to-verdicts.js';
import type { WorkerRunOptions } from '../workers/worker-messages.js';

const help = `Usage: nestcast run [scenario...] [options]

Replays scenarios keyless: every model call of every session is served from recordings/<scenario>,
no request may reach the network, and every session's transcript must equal
recordings/<scenario>/transcripts. A scenario with no recording yet fails (TRANSCRIPTS_NOT_FOUND):
record it first with nestcast record <scenario> (from its authored script, keyless).
Runs every scenario when none is named; only the selected scenario files are imported. Progress
lines and the summary are in scenario order whatever the number of workers. Exits 1 if any
scenario fails, times out, stalls or calls process.exit.

Options:
  --update             rewrite the expected transcripts from this run instead of comparing
  --timing <t>         instant (default), recorded, or a speed factor such as 2 (twice as fast)
  --grep <pattern>     only scenarios whose name matches this regular expression
  --shard <i>/<n>      only the i-th of n parts of the suite, split as vitest --shard splits
  --reporter <name>    also write a report for CI: junit or json
  --output <file>      where the report goes (default: stdout, instead of the progress output)
  --scenarios <dir>    folder of <name>.scenario.{ts,mts,js,mjs} files (default: scenarios)
  --recordings <dir>   folder of recordings (default: recordings)
  --report <dir>       also write an HTML timeline of each scenario and an index page to <dir>
  --workers <n>        run scenarios in n worker processes, each taking whole scenarios
                       (default: the number of cores; never more than the scenarios)
  --timeout <seconds>  time limit per scenario (default 60; a scenario's own \`timeout\` wins)
  --pass-with-no-scenarios
                       exit 0 when no scenario is selected (default: exit 1 with NO_SCENARIOS)
  -h, --help           show this help

Environment: NO_COLOR turns colours off. An API key in the environment is ignored.`;

export const runCommand: Command = {
  name: 'run',
  summary: 'Replay scenarios keyless',
  help,
  async run(argv, io) {
    const request = readRunRequest(argv, io);
    // Chosen by file name: a scenario that is not selected is never imported.
    const names = await selectRunScenarios(request);
    const startedAt = new Date().toISOString();
    const started = performance.now();
    return runWithoutKeys(
      () => names.map((name) => resolve(request.run.recordingsDir, name)),
      async () => {
        // Without --output the report is the command's stdout, so nothing else may be printed there.
        const stdout = request.ci !== undefined && request.ci.output === undefined ? () => undefined : io.stdout;
        const { reports, workerEscapes, lostWorkers } = await allToVerdicts(
          names,
          { run: request.run, workers: request.workers, reportDir: request.reportDir },
          { ...io, stdout },
        );
        // Between scenarios too (a timer a module started): what each worker's guard caught outside
        // any scenario's run. Scenario code runs only in workers.
        assertNoNetworkEscapes(workerEscapes);
        assertNoLostWorkers(lostWorkers);
        if (request.ci !== undefined) {
          const durationMs = performance.now() - started;
          const files = await scenarioFilesFor(names, request.run.scenariosDir, io.cwd);
          await writeCiReport(request.ci, { reports, startedAt, durationMs, files }, io);
        }
        return reports.every((report) => report.passed) ? 0 : 1;
      },
    );
  },
};

/** What `nestcast run` was asked to do, from its command line: which scenarios, how to run them, what to report. */
interface RunRequest {
  /** Scenario names given as arguments (none: all). */
  readonly positionals: readonly string[];
  readonly run: WorkerRunOptions;
  readonly workers: number;
  readonly grep: string | undefined;
  readonly shard: Shard | undefined;
  readonly passWithNone: boolean;
  /** `--report <dir>`, absolute. */
  readonly reportDir: string | undefined;
  readonly ci: CiReport | undefined;
}

function readRunRequest(argv: readonly string[], io: CliIo): RunRequest {
  const { values, positionals } = parseCommandLine(argv, {
    update: { type: 'boolean' },
    timing: { type: 'string' },
    scenarios: { type: 'string' },
    recordings: { type: 'string' },
    report: { type: 'string' },
    workers: { type: 'string' },
    timeout: { type: 'string' },
    'pass-with-no-scenarios': { type: 'boolean' },
    grep: { type: 'string' },
    shard: { type: 'string' },
    reporter: { type: 'string' },
    output: { type: 'string' },
  });
  const timing = parseTiming(values.timing);
  const timeout = parseTimeoutOption(values.timeout);
  const workers = parseWorkers(values.workers);
  // Checked with the other options, before anything is listed or loaded: a bad one is a usage error (exit 2).
  const grep = values.grep;
  if (grep !== undefined) asUsageError(() => parseGrep(grep));
  const shardText = values.shard;
  const shard = shardText === undefined ? undefined : asUsageError(() => parseShard(shardText));
  const reporter = values.reporter === undefined ? undefined : REPORTERS[values.reporter];
  if (values.reporter !== undefined && reporter === undefined) {
    throw new UsageError(`--reporter must be one of ${Object.keys(REPORTERS).join(', ')}, got "${values.reporter}"`);
  }
  if (values.output !== undefined && reporter === undefined)
    throw new UsageError('--output needs --reporter junit or --reporter json');
  return {
    positionals,
    run: {
      scenariosDir: resolve(io.cwd, values.scenarios ?? 'scenarios'),
      recordingsDir: resolve(io.cwd, values.recordings ?? 'recordings'),
      ...(values.update === true ? { update: true } : {}),
      ...(timing !== undefined ? { timing } : {}),
      ...(timeout !== undefined ? { timeout } : {}),
    },
    workers,
    grep,
    shard,
    passWithNone: values['pass-with-no-scenarios'] === true,
    reportDir: values.report === undefined ? undefined : resolve(io.cwd, values.report),
    ci:
      reporter === undefined
        ? undefined
        : {
            name: values.reporter as string,
            reporter,
            ...(values.output !== undefined ? { output: values.output } : {}),
          },
  };
}

/** The names of the selected scenarios: the named ones (or all), then `--grep` and `--shard`; none selected is NO_SCENARIOS unless asked for. */
async function selectRunScenarios(request: RunRequest): Promise<string[]> {
  const { scenariosDir } = request.run;
  const all = selectScenarios(await listScenarios(scenariosDir), request.positionals, scenariosDir);
  requireScenarios(all.length, scenariosDir, request.passWithNone);
  return narrowed(all, scenariosDir, request.grep, request.shard, request.passWithNone);
}

/** Each scenario's file relative to the working directory, `/`-separated: what a CI report points at. */
async function scenarioFilesFor(
  names: readonly string[],
  scenariosDir: string,
  cwd: string,
): Promise<Record<string, string>> {
  const files = await listScenarioFiles(scenariosDir);
  return Object.fromEntries(
    names.flatMap((name) => {
      const file = files.get(name);
      return file === undefined ? [] : [[name, relative(cwd, join(scenariosDir, file)).split(sep).join('/')]];
    }),
  );
}

/** The options one scenario runs with in a worker: replay, or record when `nestcast record` started it. */
export function runOptions(run: WorkerRunOptions, env: NodeJS.ProcessEnv) {
  return {
    mode: run.mode ?? ('replay' as const),
    recordingsDir: run.recordingsDir,
    env,
    ...(run.baseUrl !== undefined ? { baseUrl: run.baseUrl } : {}),
    ...(run.apiKeyEnv !== undefined ? { apiKeyEnv: run.apiKeyEnv } : {}),
    ...(run.model !== undefined ? { model: run.model } : {}),
    ...(run.update === true ? { update: true } : {}),
    ...(run.timing !== undefined ? { timing: run.timing } : {}),
    ...(run.timeout !== undefined ? { timeout: run.timeout } : {}),
  };
}

export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return availableParallelism();
  const workers = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(workers) || workers < 1) {
    throw new UsageError(`--workers must be a whole number of worker processes, 1 or more, got "${value}"`);
  }
  return workers;
}

/** `--grep` and `--shard` over the chosen names, before anything is loaded. */
function narrowed(
  names: string[],
  dir: string,
  grep: string | undefined,
  shard: Shard | undefined,
  passWithNone: boolean,
): string[] {
  if (grep === undefined && shard === undefined) return names;
  const selected = narrowScenarios(names, {
    ...(grep !== undefined ? { grep } : {}),
    ...(shard !== undefined ? { shard } : {}),
  });
  if (selected.length === 0 && !passWithNone) {
    throw new ScenarioError(
      'NO_SCENARIOS',
      `No scenario selected: ${names.length} in ${dir}, none matching${grep !== undefined ? ` --grep ${grep}` : ''}${shard !== undefined ? ` in --shard ${shard.index}/${shard.count}` : ''}. Pass --pass-with-no-scenarios if an empty selection is fine.`,
    );
  }
  return selected;
}

/** What `parse` returns; the ScenarioError it throws for a bad option value, as a usage error. */
function asUsageError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function parseTiming(value: string | undefined): ReplayTiming | undefined {
  if (value === undefined || value === 'instant') return value;
  if (value === 'recorded') return 'recorded';
  const speed = Number(value.replace(/x$/, ''));
  if (!Number.isFinite(speed) || speed <= 0)
    throw new UsageError(`--timing must be instant, recorded or a positive speed factor, got "${value}"`);
  // A speed factor of 2 plays the recording twice as fast: every recorded delay is halved.
  return { scale: 1 / speed };
}
