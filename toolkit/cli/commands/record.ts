import { access } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { META_FILE } from '../../cassette/lineage-file.js';
import { loadCassette } from '../../cassette/load-cassette.js';
import { ambiguityLines } from '../ambiguity-lines.js';
import { assertNoNetworkEscapes } from '../../guard/assert-no-network-escapes.js';
import { listScenarios } from '../../scenarios/load-scenarios.js';
import type { ScenarioReport } from '../../scenarios/run-scenario.js';
import { selectScenarios } from '../../scenarios/select-scenarios.js';
import type { Command } from '../command.js';
import { cleanExitOnSignal } from '../clean-exit-on-signal.js';
import { paint, type CliIo, type Paint } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { parseTimeoutOption, requireScenarios } from '../scenario-selection.js';
import { allToVerdicts, assertNoLostWorkers } from '../workers/all-to-verdicts.js';

const help = `Usage: nestcast record [scenario...] [options]

Runs scenarios through the real OpenAI-compatible adapter and saves every model call of every
session to recordings/<scenario>, plus the expected transcripts. Records every scenario when none
is named. Each scenario runs in a worker process watched from this one, as in \`nestcast run\`: past
its time limit, or when its code ends its process, it fails and the next one is recorded.

Where the calls go:
  - a scenario with an authored script: to a loopback \`nestcast model-server\` serving it (no key);
  - with --base-url, or a scenario without a script: to that API (default DEEPSEEK_BASE_URL, else
    https://api.deepseek.com) with the key in --api-key-env, else the host's usual variable
    (OPENAI_API_KEY for api.openai.com, …), else DEEPSEEK_API_KEY. The key is never written: a
    recording that contains it anywhere is refused and nothing is saved. A scenario's sessions send
    its \`agent.model\`, else --model; recording against an API other than DeepSeek's needs one of
    them (MODEL_REQUIRED), never DeepSeek's default model name.

A program scenario (\`program\` instead of \`steps\`) sends what its own code sends, through the fetch
and endpoint nestcast hands it (see docs/scenarios.md, "Scenarios for your own agents"); --model
does not apply to it: it fails MODEL_NOT_APPLICABLE before any call, and record exits 2.

Each recording saved is named with what it holds: \`wrote recordings/<name> (N sessions, M model
calls, model <model> at <host>)\`.

Options:
  --missing            record only scenarios that have no recording yet
  --base-url <url>     record against this OpenAI-compatible API instead of the authored script
  --api-key-env <NAME> the environment variable holding that API's key
  --model <name>       the model name every session of a harness scenario sends (its agent.model wins)
  --scenarios <dir>    folder of <name>.scenario.{ts,mts,js,mjs} files (default: scenarios)
  --recordings <dir>   folder of recordings (default: recordings)
  --report <dir>       also write an HTML timeline of each scenario and an index page to <dir>
  --timeout <seconds>  time limit per scenario (default 60; a scenario's own \`timeout\` wins)
  --pass-with-no-scenarios
                       exit 0 when the folder holds no scenario (default: exit 1 with NO_SCENARIOS)
  -h, --help           show this help`;

export const recordCommand: Command = {
  name: 'record',
  summary: 'Record scenarios',
  help,
  async run(argv, io) {
    const request = readRecordRequest(argv, io);
    // Chosen by file name: scenario code is never imported here, only in the worker recording it.
    const selected = selectScenarios(
      await listScenarios(request.scenariosDir),
      request.positionals,
      request.scenariosDir,
    );
    requireScenarios(selected.length, request.scenariosDir, request.passWithNone);
    const uninstallSignals = cleanExitOnSignal(() => selected.map((name) => resolve(request.recordingsDir, name)));
    try {
      const names = request.missing ? await withoutRecording(selected, request.recordingsDir) : selected;
      if (names.length === 0) {
        io.stdout('nothing to record: every scenario has a recording\n');
        return 0;
      }
      const reports = await recordEach(names, request, io);
      if (reports.every((report) => report.passed)) return 0;
      // The command line asked for what cannot apply (the worker that loaded the scenario said so): a usage error.
      const misused = reports.some((report) => report.failures.some(({ code }) => code === 'MODEL_NOT_APPLICABLE'));
      return misused ? 2 : 1;
    } finally {
      uninstallSignals();
    }
  },
};

/** What `nestcast record` was asked to do, from its command line. */
interface RecordRequest {
  /** Scenario names given as arguments (none: all). */
  readonly positionals: readonly string[];
  readonly scenariosDir: string;
  readonly recordingsDir: string;
  /** Only scenarios that have no recording yet. */
  readonly missing: boolean;
  readonly timeout: number | undefined;
  readonly baseUrl: string | undefined;
  readonly apiKeyEnv: string | undefined;
  readonly model: string | undefined;
  readonly passWithNone: boolean;
  /** `--report <dir>`, absolute. */
  readonly reportDir: string | undefined;
}

function readRecordRequest(argv: readonly string[], io: CliIo): RecordRequest {
  const { values, positionals } = parseCommandLine(argv, {
    missing: { type: 'boolean' },
    'base-url': { type: 'string' },
    'api-key-env': { type: 'string' },
    model: { type: 'string' },
    scenarios: { type: 'string' },
    recordings: { type: 'string' },
    report: { type: 'string' },
    timeout: { type: 'string' },
    'pass-with-no-scenarios': { type: 'boolean' },
  });
  return {
    positionals,
    timeout: parseTimeoutOption(values.timeout),
    recordingsDir: resolve(io.cwd, values.recordings ?? 'recordings'),
    scenariosDir: resolve(io.cwd, values.scenarios ?? 'scenarios'),
    missing: values.missing === true,
    baseUrl: values['base-url'],
    apiKeyEnv: values['api-key-env'],
    model: values.model,
    passWithNone: values['pass-with-no-scenarios'] === true,
    reportDir: values.report === undefined ? undefined : resolve(io.cwd, values.report),
  };
}

/** `--missing`: the scenarios without a saved recording (no meta.json). */
async function withoutRecording(names: readonly string[], recordingsDir: string): Promise<string[]> {
  const present = await Promise.all(names.map((name) => exists(join(recordingsDir, name, META_FILE))));
  return names.filter((_, index) => !present[index]);
}

/**
 * Records each scenario to its verdict, one after the other, in a worker process watched from
 * here as \`nestcast run\` runs them (a time limit that holds against code that never yields, and
 * any way scenario code ends its process fails that scenario); its progress line with the
 * ambiguities it saved, then the summary and the --report pages.
 */
async function recordEach(names: readonly string[], request: RecordRequest, io: CliIo): Promise<ScenarioReport[]> {
  const p = paint(io.color);
  const { reports, workerEscapes, lostWorkers } = await allToVerdicts(
    names,
    {
      run: {
        mode: 'record',
        scenariosDir: request.scenariosDir,
        recordingsDir: request.recordingsDir,
        ...(request.timeout !== undefined ? { timeout: request.timeout } : {}),
        ...(request.baseUrl !== undefined ? { baseUrl: request.baseUrl } : {}),
        ...(request.apiKeyEnv !== undefined ? { apiKeyEnv: request.apiKeyEnv } : {}),
        ...(request.model !== undefined ? { model: request.model } : {}),
      },
      // One at a time, in order: a recording against a real API keeps to one conversation at once.
      workers: 1,
      reportDir: request.reportDir,
      linesAfter: (report) =>
        report.passed ? savedLines(join(request.recordingsDir, report.name), p, io.cwd) : Promise.resolve([]),
    },
    io,
  );
  assertNoNetworkEscapes(workerEscapes);
  assertNoLostWorkers(lostWorkers);
  return reports;
}

/**
 * Where the recording went and what it holds, read back from what was saved; then its ambiguities,
 * which meta.json keeps and the record is where the user can still fix them.
 */
async function savedLines(recordingDir: string, p: Paint, cwd: string): Promise<string[]> {
  const { ambiguities = [], calls, provenance } = await loadCassette(recordingDir);
  const where = relative(cwd, recordingDir) || '.';
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const modelCalls = Object.values(calls).reduce((sum, list) => sum + list.length, 0);
  const model = provenance.model === undefined ? '' : `, model ${provenance.model}`;
  const host = provenance.host === undefined ? '' : ` at ${provenance.host}`;
  return [
    `    wrote ${where.startsWith('..') ? recordingDir : where} (${count(Object.keys(calls).length, 'session')}, ${count(modelCalls, 'model call')}${model}${host})`,
    ...ambiguityLines(ambiguities, p, '    '),
  ];
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
