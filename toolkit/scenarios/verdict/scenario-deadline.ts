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

/** The time limit that applies: the scenario's own, else the runner's, else the default. */
export function scenarioTimeout(own: number | undefined, runner: number | undefined): number {
  return own ?? runner ?? DEFAULT_SCENARIO_TIMEOUT_S;
}
