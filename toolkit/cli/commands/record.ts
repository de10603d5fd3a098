import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { META_FILE } from '../../cassette/lineage-file.js';
import { loadCassette } from '../../cassette/load-cassette.js';
import { ambiguityLines } from '../ambiguity-lines.js';
import type { ScenarioReport } from '../../scenarios/run-scenario.js';
import { runScenarioToVerdict } from '../../scenarios/verdict/run-to-verdict.js';
import type { Command } from '../command.js';
import type { ScenarioDefinition } from '../../scenarios/types.js';
import { cleanExitOnSignal } from '../clean-exit-on-signal.js';
import { paint, type CliIo } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { reportCollector } from '../report-runs.js';
import { progressLine, summaryTable } from '../scenario-table.js';
import { loadSelectedScenarios, parseTimeoutOption, requireScenarios } from '../scenario-selection.js';

const help = `Usage: nestcast record [scenario...] [options]

Runs scenarios through the real OpenAI-compatible adapter and saves every model call of every
session to recordings/<scenario>, plus the expected transcripts. Records every scenario when none
is named.

Where the calls go:
  - a scenario with an authored script: to a loopback \`nestcast model-server\` serving it (no key);
  - with --base-url, or a scenario without a script: to that API (default DEEPSEEK_BASE_URL, else
    https://api.deepseek.com) with the key in --api-key-env, else the host's usual variable
    (OPENAI_API_KEY for api.openai.com, …), else DEEPSEEK_API_KEY. The key is never written: a
    recording that contains it anywhere is refused and nothing is saved.

Options:
  --missing            record only scenarios that have no recording yet
  --base-url <url>     record against this OpenAI-compatible API instead of the authored script
  --api-key-env <NAME> the environment variable holding that API's key
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
    const { values, positionals } = parseCommandLine(argv, {
      missing: { type: 'boolean' },
      'base-url': { type: 'string' },
      'api-key-env': { type: 'string' },
      scenarios: { type: 'string' },
      recordings: { type: 'string' },
      report: { type: 'string' },
      timeout: { type: 'string' },
      'pass-with-no-scenarios': { type: 'boolean' },
    });
    const timeout = parseTimeoutOption(values.timeout);
    const recordingsDir = resolve(io.cwd, values.recordings ?? 'recordings');
    const scenariosDir = resolve(io.cwd, values.scenarios ?? 'scenarios');
    const scenarios = await loadSelectedScenarios(scenariosDir, positionals);
    requireScenarios(scenarios.length, scenariosDir, values['pass-with-no-scenarios'] === true);
    const uninstallSignals = cleanExitOnSignal(() => scenarios.map((scenario) => resolve(recordingsDir, scenario.name)));
    try {
      const reportDir = values.report === undefined ? undefined : resolve(io.cwd, values.report);
      return await recordAll(
        scenarios,
        { recordingsDir, missing: values.missing === true, timeout, baseUrl: values['base-url'], apiKeyEnv: values['api-key-env'], reportDir },
        io,
      );
    } finally {
      uninstallSignals();
    }
  },
};

async function recordAll(
  selected: readonly ScenarioDefinition[],
  options: {
    readonly recordingsDir: string;
    readonly missing: boolean;
    readonly timeout: number | undefined;
    readonly baseUrl: string | undefined;
    readonly apiKeyEnv: string | undefined;
    readonly reportDir: string | undefined;
  },
  io: CliIo,
): Promise<number> {
  const { recordingsDir, timeout } = options;
  let scenarios = selected;
  if (options.missing) {
    const present = await Promise.all(scenarios.map((scenario) => exists(join(recordingsDir, scenario.name, META_FILE))));
    scenarios = scenarios.filter((_, index) => !present[index]);
  }
  const p = paint(io.color);
  const reports: ScenarioReport[] = [];
  const htmlReport = reportCollector(options.reportDir);
  for (const scenario of scenarios) {
    const report = await runScenarioToVerdict(scenario, {
      mode: 'record',
      ...htmlReport.optionsFor(scenario.name),
      ...(timeout !== undefined ? { timeout } : {}),
      recordingsDir,
      env: io.env,
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    });
    reports.push(report);
    htmlReport.add(report);
    io.stdout(progressLine(report, p));
    if (report.passed) {
      // A saved recording keeps its ambiguities in meta.json; the record is where the user can still fix them.
      const { ambiguities = [] } = await loadCassette(join(recordingsDir, scenario.name));
      for (const line of ambiguityLines(ambiguities, p, '    ')) io.stdout(`${line}\n`);
    }
  }
  if (reports.length === 0) {
    io.stdout('nothing to record: every scenario has a recording\n');
    return 0;
  }
  io.stdout(`\n${summaryTable(reports, p)}`);
  await htmlReport.write(io);
  return reports.every((report) => report.passed) ? 0 : 1;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
