import { ScenarioError } from '../scenarios/scenario-error.js';
import { UsageError } from './command.js';

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
