import { deferred } from '../../../harness/runtime/deferred.js';
import type { Interruption } from './interruption.js';

/** The per-scenario time limit when neither the scenario nor `--timeout` sets one. */
export const DEFAULT_SCENARIO_TIMEOUT_S = 60;

/**
 * Interrupts with SCENARIO_TIMEOUT after `seconds`. The timer is unref'd: it must not keep a
 * process alive whose event loop has drained, which is a different failure (SCENARIO_STALLED).
 */
export function scenarioDeadline(seconds: number): {
  readonly interrupted: Promise<Interruption>;
  readonly cancel: () => void;
} {
  const { promise, resolve: settle } = deferred<Interruption>();
  const timer = setTimeout(
    () =>
      settle({
        code: 'SCENARIO_TIMEOUT',
        message: `did not finish within its time limit of ${seconds} s; raise it with \`timeout\` in the scenario definition or --timeout <seconds>, or find what never settles`,
      }),
    seconds * 1000,
  );
  timer.unref();
  return { interrupted: promise, cancel: () => clearTimeout(timer) };
}

/** The shortest time a scenario file's import gets, whatever `--timeout` says: loading is not the scenario's run. */
const IMPORT_FLOOR_S = 10;

/** The time limit of importing a scenario's file: the runner's (its own `timeout` is not known yet), never below the floor. */
export function importTimeout(runner: number | undefined): number {
  return Math.max(runner ?? DEFAULT_SCENARIO_TIMEOUT_S, IMPORT_FLOOR_S);
}

/** The time limit that applies: the scenario's own, else the runner's, else the default. */
export function scenarioTimeout(own: number | undefined, runner: number | undefined): number {
  return own ?? runner ?? DEFAULT_SCENARIO_TIMEOUT_S;
}
