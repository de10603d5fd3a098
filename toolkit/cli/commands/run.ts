import { resolve } from 'node:path';
import type { ReplayTiming } from '../../replay/replay-timing.js';
import type { ScenarioReport } from '../../scenarios/run-scenario.js';
import { runScenarioToVerdict } from '../../scenarios/verdict/run-to-verdict.js';
import { UsageError, type Command } from '../command.js';
import { paint, type CliIo } from '../io.js';
import { installNetworkGuard } from '../../guard/network-guard.js';
import { scrubKeyLikeEnv } from '../../guard/scrub-key-env.js';
import type { ScenarioDefinition } from '../../scenarios/types.js';
import { cleanExitOnSignal } from '../clean-exit-on-signal.js';
import { parseCommandLine } from '../parse.js';
import { reportCollector } from '../report-runs.js';
import { progressLine, summaryTable } from '../scenario-table.js';
import { loadSelectedScenarios, parseTimeoutOption, requireScenarios } from '../scenario-selection.js';

const help = `Usage: nestcast run [scenario...] [options]

Replays scenarios keyless: every model call of every session is served from recordings/<scenario>
(or from the scenario's authored script while it has no recording), no request may reach the
network, and every session's transcript must equal recordings/<scenario>/transcripts.
Runs every scenario when none is named. Exits 1 if any scenario fails, times out, stalls
or calls process.exit.

Options:
  --update             rewrite the expected transcripts from this run instead of comparing
  --timing <t>         instant (default), recorded, or a speed factor such as 2 (twice as fast)
  --scenarios <dir>    folder of <name>.scenario.ts files (default: scenarios)
  --recordings <dir>   folder of recordings (default: recordings)
  --report <dir>       also write an HTML timeline of each scenario and an index page to <dir>
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
    const { values, positionals } = parseCommandLine(argv, {
      update: { type: 'boolean' },
      timing: { type: 'string' },
      scenarios: { type: 'string' },
      recordings: { type: 'string' },
      report: { type: 'string' },
      timeout: { type: 'string' },
      'pass-with-no-scenarios': { type: 'boolean' },
    });
    const timing = parseTiming(values.timing);
    const timeout = parseTimeoutOption(values.timeout);
    const scenariosDir = resolve(io.cwd, values.scenarios ?? 'scenarios');
    const recordingsDir = resolve(io.cwd, values.recordings ?? 'recordings');
    // Keyless before the first scenario module loads: a client built at import finds no key, and what it sends is caught.
    const restoreEnv = scrubKeyLikeEnv(process.env);
    const guard = installNetworkGuard();
    let scenarios: ScenarioDefinition[] = [];
    const uninstallSignals = cleanExitOnSignal(() => scenarios.map((scenario) => resolve(recordingsDir, scenario.name)));
    try {
      scenarios = await loadSelectedScenarios(scenariosDir, positionals);
      guard.assertNoEscapes();
      requireScenarios(scenarios.length, scenariosDir, values['pass-with-no-scenarios'] === true);
      const reportDir = values.report === undefined ? undefined : resolve(io.cwd, values.report);
      const code = await replayAll(scenarios, { recordingsDir, update: values.update === true, timing, timeout, reportDir }, io);
      // Between scenarios too (a timer a module started): each scenario's own guard sees only its run.
      guard.assertNoEscapes();
      return code;
    } finally {
      uninstallSignals();
      guard.close();
      restoreEnv();
    }
  },
};

async function replayAll(
  scenarios: readonly ScenarioDefinition[],
  options: {
    readonly recordingsDir: string;
    readonly update: boolean;
    readonly timing: ReplayTiming | undefined;
    readonly timeout: number | undefined;
    readonly reportDir: string | undefined;
  },
  io: CliIo,
): Promise<number> {
  const { timing, timeout } = options;
  const p = paint(io.color);
  const reports: ScenarioReport[] = [];
  const htmlReport = reportCollector(options.reportDir);
  for (const scenario of scenarios) {
    const report = await runScenarioToVerdict(scenario, {
      mode: 'replay',
      ...htmlReport.optionsFor(scenario.name),
      ...(timeout !== undefined ? { timeout } : {}),
      recordingsDir: options.recordingsDir,
      env: io.env,
      ...(options.update ? { update: true } : {}),
      ...(timing !== undefined ? { timing } : {}),
    });
    reports.push(report);
    htmlReport.add(report);
    io.stdout(progressLine(report, p));
  }
  io.stdout(`\n${summaryTable(reports, p)}`);
  await htmlReport.write(io);
  return reports.every((report) => report.passed) ? 0 : 1;
}

export function parseTiming(value: string | undefined): ReplayTiming | undefined {
  if (value === undefined || value === 'instant') return value;
  if (value === 'recorded') return 'recorded';
  const speed = Number(value.replace(/x$/, ''));
  if (!Number.isFinite(speed) || speed <= 0) throw new UsageError(`--timing must be instant, recorded or a positive speed factor, got "${value}"`);
  // A speed factor of 2 plays the recording twice as fast: every recorded delay is halved.
  return { scale: 1 / speed };
}
