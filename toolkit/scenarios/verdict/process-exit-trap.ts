import { ScenarioError } from '../scenario-error.js';
import { deferred } from '../../../harness/runtime/deferred.js';
import type { Interruption } from './interruption.js';

/**
 * While armed, `process.exit` from scenario code interrupts the scenario with SCENARIO_EXIT
 * instead of ending the run with whatever code it passed (often 0, a false green). The call
 * throws so the code after it does not run on as if the process had gone.
 */
export function trapProcessExit(): { readonly interrupted: Promise<Interruption>; readonly restore: () => void } {
  const { promise, resolve: settle } = deferred<Interruption>();
  const original = process.exit;
  const trapped = (code?: number | string | null): never => {
    const message = `scenario code called process.exit(${code === undefined ? '' : JSON.stringify(code)}); a scenario must end by returning, so the runner can check it`;
    settle({ code: 'SCENARIO_EXIT', message });
    throw new ScenarioError('SCENARIO_EXIT', message);
  };
  process.exit = trapped as typeof process.exit;
  return {
    interrupted: promise,
    restore: () => {
      if (process.exit === trapped) process.exit = original;
    },
  };
}
