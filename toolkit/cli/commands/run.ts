import { resolve } from 'node:path';
import type { ReplayTiming } from '../../replay/replay-timing.js';
import { loadScenarios } from '../../scenarios/load-scenarios.js';
import { runScenario, type ScenarioReport } from '../../scenarios/run-scenario.js';
import { UsageError, type Command } from '../command.js';
import { paint } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { reportCollector } from '../report-runs.js';
import { progressLine, summaryTable } from '../scenario-table.js';

const help = `Usage: nestcast run [scenario...] [options]

Replays scenarios keyless: every model call of every session is served from recordings/<scenario>
(or from the scenario's authored script while it has no recording), no request may reach the
network, and every session's transcript must equal recordings/<scenario>/transcripts.
Runs every scenario when none is named. Exits 1 if any scenario fails.

Options:
  --update             rewrite the expected transcripts from this run instead of comparing
  --timing <t>         instant (default), recorded, or a speed factor such as 2 (twice as fast)
  --scenarios <dir>    folder of <name>.scenario.ts files (default: scenarios)
  --recordings <dir>   folder of recordings (default: recordings)
  --report <dir>       also write an HTML timeline of each scenario and an index page to <dir>
  -h, --help           show this help

Environment: NO_COLOR turns colours off. An API key in the environment is ignored.`;

export const runCommand: Command = {
  name: 'run',
  summary: 'Replay scenarios keyless',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, {
      update: { type: 'boolean' },
      timing: { type: 'string' },
      scenarios: { type: 'string' },
      recordings: { type: 'string' },
      report: { type: 'string' },
    });
    const timing = parseTiming(values.timing);
    const scenarios = await loadScenarios(resolve(io.cwd, values.scenarios ?? 'scenarios'), positionals);
    const p = paint(io.color);
    const reports: ScenarioReport[] = [];
    const htmlReport = reportCollector(values.report === undefined ? undefined : resolve(io.cwd, values.report));
    for (const scenario of scenarios) {
      const report = await runScenario(scenario, {
        mode: 'replay',
        recordingsDir: resolve(io.cwd, values.recordings ?? 'recordings'),
        env: io.env,
        ...htmlReport.optionsFor(scenario.name),
        ...(values.update === true ? { update: true } : {}),
        ...(timing !== undefined ? { timing } : {}),
      });
      reports.push(report);
      htmlReport.add(report);
      io.stdout(progressLine(report, p));
    }
    io.stdout(`\n${summaryTable(reports, p)}`);
    await htmlReport.write(io);
    return reports.every((report) => report.passed) ? 0 : 1;
  },
};

export function parseTiming(value: string | undefined): ReplayTiming | undefined {
  if (value === undefined || value === 'instant') return value;
  if (value === 'recorded') return 'recorded';
  const speed = Number(value.replace(/x$/, ''));
  if (!Number.isFinite(speed) || speed <= 0) throw new UsageError(`--timing must be instant, recorded or a positive speed factor, got "${value}"`);
  // A speed factor of 2 plays the recording twice as fast: every recorded delay is halved.
  return { scale: 1 / speed };
}
