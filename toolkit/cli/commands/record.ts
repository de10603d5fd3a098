import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { META_FILE } from '../../cassette/lineage-file.js';
import { loadScenarios } from '../../scenarios/load-scenarios.js';
import { runScenario, type ScenarioReport } from '../../scenarios/run-scenario.js';
import type { Command } from '../command.js';
import { paint } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { reportCollector } from '../report-runs.js';
import { progressLine, summaryTable } from '../scenario-table.js';

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
    });
    const recordingsDir = resolve(io.cwd, values.recordings ?? 'recordings');
    let scenarios = await loadScenarios(resolve(io.cwd, values.scenarios ?? 'scenarios'), positionals);
    if (values.missing === true) {
      const present = await Promise.all(scenarios.map((scenario) => exists(join(recordingsDir, scenario.name, META_FILE))));
      scenarios = scenarios.filter((_, index) => !present[index]);
    }
    const p = paint(io.color);
    const reports: ScenarioReport[] = [];
    const htmlReport = reportCollector(values.report === undefined ? undefined : resolve(io.cwd, values.report));
    for (const scenario of scenarios) {
      const report = await runScenario(scenario, {
        mode: 'record',
        recordingsDir,
        env: io.env,
        ...htmlReport.optionsFor(scenario.name),
        ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
        ...(values['api-key-env'] !== undefined ? { apiKeyEnv: values['api-key-env'] } : {}),
      });
      reports.push(report);
      htmlReport.add(report);
      io.stdout(progressLine(report, p));
    }
    if (reports.length === 0) {
      io.stdout('nothing to record: every scenario has a recording\n');
      return 0;
    }
    io.stdout(`\n${summaryTable(reports, p)}`);
    await htmlReport.write(io);
    return reports.every((report) => report.passed) ? 0 : 1;
  },
};

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
