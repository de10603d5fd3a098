import { runScenario, type RunScenarioOptions, type ScenarioReport } from '../run-scenario.js';
import type { ScenarioDefinition } from '../types.js';
import { watchEventLoopDrain } from './event-loop-drain.js';
import { trapProcessExit } from './process-exit-trap.js';

/**
 * Runs one scenario to a verdict in a process that runs scenarios (the CLI, a worker): on top of
 * `runScenario`'s time limit, a drained event loop and `process.exit` from scenario code fail
 * this scenario instead of ending the process, so the scenarios after it still run.
 */
export async function runScenarioToVerdict(
  scenario: ScenarioDefinition,
  options: RunScenarioOptions = {},
): Promise<ScenarioReport> {
  const drain = watchEventLoopDrain();
  const exit = trapProcessExit();
  try {
    const interrupts = [drain.interrupted, exit.interrupted, ...(options.interrupt ? [options.interrupt] : [])];
    return await runScenario(scenario, { ...options, interrupt: Promise.race(interrupts) });
  } finally {
    exit.restore();
    drain.dispose();
  }
}
