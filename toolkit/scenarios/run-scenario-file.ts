import { loadScenario } from './load-scenarios.js';
import { runScenario, type RunScenarioOptions, type ScenarioReport } from './run-scenario.js';

/**
 * Everything that happens to one selected scenario: import its file (only it), run it, report.
 * The one place a scenario turns into a verdict, serial or in a worker: an import that throws
 * fails that scenario, not the run, and the scenarios after it still run.
 */
export async function runScenarioFile(dir: string, name: string, options: RunScenarioOptions = {}): Promise<ScenarioReport> {
  const started = performance.now();
  let scenario;
  try {
    scenario = await loadScenario(dir, name);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    return failedReport(name, options.mode ?? 'replay', {
      code: code === 'SCENARIO_INVALID' ? code : 'SCENARIO_LOAD_FAILED',
      message: code === 'SCENARIO_INVALID' ? message : `importing its file failed: ${message}`,
    }, performance.now() - started);
  }
  return runScenario(scenario, options);
}

/** The report of a scenario that never reached `runScenario`'s end: one failure, nothing counted. */
export function failedReport(
  name: string,
  mode: ScenarioReport['mode'],
  failure: { readonly code: string; readonly message: string },
  durationMs: number,
): ScenarioReport {
  return {
    name,
    mode,
    source: 'none',
    sessions: 0,
    modelCalls: 0,
    passed: false,
    failures: [{ code: failure.code, message: `${name}: ${failure.message}` }],
    durationMs,
    wroteTranscripts: false,
  };
}
