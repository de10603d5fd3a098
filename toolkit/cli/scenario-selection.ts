import { loadScenarios } from '../scenarios/load-scenarios.js';
import { ScenarioError } from '../scenarios/scenario-error.js';
import type { ScenarioDefinition } from '../scenarios/types.js';
import { failOnDrain } from '../scenarios/verdict/event-loop-drain.js';
import { UsageError } from './command.js';

/**
 * Imports the selected scenarios. A module whose top-level await never settles fails the command
 * (SCENARIO_STALLED) instead of letting the process exit 0 with nothing run.
 */
export function loadSelectedScenarios(dir: string, names: readonly string[]): Promise<ScenarioDefinition[]> {
  return failOnDrain(
    loadScenarios(dir, names),
    () =>
      new ScenarioError(
        'SCENARIO_STALLED',
        `Loading the scenarios in ${dir} stopped with nothing left to wait on: a scenario module's top-level await never settles. Make module loading finish; do the work in the scenario's steps or tools.`,
      ),
  );
}

/** Zero scenarios selected is an error (a typo'd folder, a filter matching nothing) unless the user asked for it. */
export function requireScenarios(count: number, dir: string, passWithNone: boolean): void {
  if (count > 0 || passWithNone) return;
  throw new ScenarioError(
    'NO_SCENARIOS',
    `No scenarios selected: ${dir} holds no <name>.scenario.ts files. Add one, point --scenarios at the right folder, or pass --pass-with-no-scenarios if an empty run is fine.`,
  );
}

/** `--timeout <seconds>`: a positive number of seconds. */
export function parseTimeoutOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value.replace(/s$/, ''));
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds, got "${value}"`);
  return seconds;
}
