import { loadScenario } from './load-scenarios.js';
import { failedReport } from './scenario-report.js';
import type { RunScenarioOptions, ScenarioReport } from './run-scenario.js';
import { ScenarioError } from './scenario-error.js';
import { failOnDrain } from './verdict/event-loop-drain.js';
import { importTimeout, scenarioDeadline, scenarioTimeout } from './verdict/scenario-deadline.js';
import { runScenarioToVerdict } from './verdict/run-to-verdict.js';

/**
 * Everything that happens to one selected scenario: import its file (only it), run it, report.
 * The one place a scenario turns into a verdict, serial or in a worker: an import that throws
 * fails that scenario, not the run, and the scenarios after it still run.
 */
export async function runScenarioFile(
  dir: string,
  name: string,
  options: RunScenarioFileOptions = {},
): Promise<ScenarioReport> {
  const started = performance.now();
  let scenario;
  try {
    scenario = await importWithinLimits(dir, name, options.timeout);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    const own = code === 'SCENARIO_INVALID' || code === 'SCENARIO_STALLED' || code === 'SCENARIO_TIMEOUT';
    return failedReport(
      name,
      options.mode ?? 'replay',
      {
        code: own ? code : 'SCENARIO_LOAD_FAILED',
        message: own ? message : `importing its file failed: ${message}`,
      },
      performance.now() - started,
    );
  }
  const { onStarted, ...runOptions } = options;
  onStarted?.(scenarioTimeout(scenario.timeout, options.timeout));
  return runScenarioToVerdict(scenario, runOptions);
}

export interface RunScenarioFileOptions extends RunScenarioOptions {
  /** Called once the file is imported, as the run starts, with its time limit in seconds: a watchdog outside this process counts from here. */
  readonly onStarted?: (timeoutSeconds: number) => void;
}

/**
 * A module whose top-level await never settles must not end the process with nothing run (a
 * drained loop) nor hold a worker forever: the import gets the runner's time limit too.
 */
async function importWithinLimits(dir: string, name: string, timeout: number | undefined) {
  const deadline = scenarioDeadline(importTimeout(timeout));
  try {
    const timedOut = deadline.interrupted.then((interruption): never => {
      throw new ScenarioError('SCENARIO_TIMEOUT', `importing its file ${interruption.message}`);
    });
    return await failOnDrain(
      Promise.race([loadScenario(dir, name), timedOut]),
      () =>
        new ScenarioError(
          'SCENARIO_STALLED',
          "importing its file stopped with nothing left to wait on: its top-level await never settles. Make module loading finish; do the work in the scenario's steps or tools.",
        ),
    );
  } finally {
    deadline.cancel();
  }
}
