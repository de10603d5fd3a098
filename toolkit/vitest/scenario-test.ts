import { resolve } from 'node:path';
import { test } from 'vitest';
import { loadScenarios } from '../scenarios/load-scenarios.js';
import { unknownOption } from '../../harness/option-keys.js';
import {
  assertScenarioPassed,
  RUN_SCENARIO_OPTION_KEYS,
  runScenario,
  type RunScenarioOptions,
  type ScenarioReport,
} from '../scenarios/run-scenario.js';
import { failedReport } from '../scenarios/scenario-report.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { interruptIfBlocked } from '../scenarios/verdict/blocked-thread-watchdog.js';
import { importTimeout, scenarioTimeout } from '../scenarios/verdict/scenario-deadline.js';

export interface ScenarioTestOptions extends Omit<RunScenarioOptions, 'mode'> {
  /** Folder of `<name>.scenario.ts` files. Default `scenarios` (from the working directory). */
  readonly scenariosDir?: string;
}

// vitest's own limit comes after the scenario's, so a slow scenario fails with SCENARIO_TIMEOUT and
// where each session stood, not with vitest's bare "Test timed out".
const VITEST_GRACE_MS = 15_000;

/**
 * vitest's timeout for the test, in ms: the scenario's limit in seconds (its own `timeout` when
 * the definition is given, else `options.timeout`, else 60) plus the grace.
 */
export function scenarioTestTimeoutMs(scenario: ScenarioDefinition | string, options: ScenarioTestOptions): number {
  const own = typeof scenario === 'string' ? undefined : scenario.timeout;
  return scenarioTimeout(own, options.timeout) * 1000 + VITEST_GRACE_MS;
}

/**
 * Runs a scenario as a vitest test, replaying its recording. A failure fails the test with every
 * divergence in its message: the scenario, the lineage, the call or transcript line, and the fix.
 */
export function scenarioTest(scenario: ScenarioDefinition | string, options: ScenarioTestOptions = {}): void {
  const name = typeof scenario === 'string' ? scenario : scenario.name;
  // Refused as the test file loads, not when the test runs.
  const unknown = unknownOption(options, [...RUN_SCENARIO_OPTION_KEYS.filter((key) => key !== 'mode'), 'scenariosDir']);
  if (unknown !== undefined) throw new ScenarioError('OPTIONS_INVALID', `scenarioTest: ${unknown}.`);
  const { scenariosDir: _scenariosDir, ...runOptions } = options;
  test(
    `scenario ${name} replays as recorded`,
    async () => {
      const started = performance.now();
      let report: ScenarioReport;
      try {
        const definition =
          typeof scenario === 'string'
            ? await watched(importTimeout(options.timeout), name, 'importing its file ', () => loadOne(name, options))
            : scenario;
        const limit = scenarioTimeout(definition.timeout, options.timeout);
        report = await watched(limit, name, '', () => runScenario(definition, { ...runOptions, mode: 'replay' }));
      } catch (error) {
        if (!(error instanceof ScenarioError && error.code === 'SCENARIO_TIMEOUT')) throw error;
        // Interrupted: failed as any scenario failure is, with its code and name.
        report = failedReport(name, 'replay', error, performance.now() - started);
      }
      expectScenarioToPass(report);
    },
    scenarioTestTimeoutMs(scenario, options),
  );
}

/**
 * Fails with the report's failures (each headline once, what it caused listed under it, then the
 * harness log) as the error's message: an assertion against '' would print them twice, as message and as diff.
 */
export function expectScenarioToPass(report: ScenarioReport): void {
  assertScenarioPassed(report);
}

/**
 * The scenario runs in this test's own thread (a definition's functions cannot move to another
 * process): code in it that never yields is interrupted from a thread of its own, and this test
 * fails with SCENARIO_TIMEOUT while the other tests of the file still run.
 */
async function watched<T>(seconds: number, name: string, doing: string, work: () => Promise<T>): Promise<T> {
  const watchdog = interruptIfBlocked(seconds, name, doing);
  try {
    return await Promise.race([work(), watchdog.interrupted]);
  } finally {
    await watchdog.stop();
  }
}

async function loadOne(name: string, options: ScenarioTestOptions): Promise<ScenarioDefinition> {
  const [definition] = await loadScenarios(resolve(options.scenariosDir ?? 'scenarios'), [name]);
  return definition as ScenarioDefinition;
}
