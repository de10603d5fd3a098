import type { Logger } from '../../../harness/runtime/logger.js';
import { driveSteps } from '../drive-steps.js';
import type { ModelSource } from '../model-source.js';
import { buildScenarioRuntime } from '../scenario-runtime.js';
import type { HarnessScenario } from '../types.js';
import type { Interruption } from '../verdict/interruption.js';
import { describeLastEvents } from '../verdict/last-events.js';
import type { RunFolders } from './run-folders.js';

/** How long an interrupted run's runtime gets to dispose before the runner moves on. */
const DISPOSE_GRACE_MS = 2_000;

/**
 * Builds the scenario's runtime, drives its steps in the main session, and disposes the runtime.
 * Settles with the interruption that stopped the steps first (its message ends with where each
 * session stood), or undefined when they finished.
 */
export async function driveScenario(
  scenario: HarnessScenario,
  run: {
    readonly folders: RunFolders;
    readonly source: ModelSource;
    readonly logger: Logger;
    /** The time limit, cancelled once the steps stop. */
    readonly deadline: { readonly interrupted: Promise<Interruption>; readonly cancel: () => void };
    readonly interrupt: Promise<Interruption> | undefined;
  },
): Promise<Interruption | undefined> {
  const { sessionsRoot, cwd } = run.folders;
  const { runtime, modelStream } = await buildScenarioRuntime(scenario, {
    sessionsRoot,
    source: run.source,
    logger: run.logger,
  });
  let interrupted: Interruption | undefined;
  try {
    const driven = (async () => {
      const session = await runtime.sessions.create({ lineage: 'main', cwd });
      const agent = runtime.agents.create({
        session,
        ...(scenario.agent?.system !== undefined ? { system: scenario.agent.system } : {}),
        ...(scenario.agent?.model !== undefined ? { model: scenario.agent.model } : {}),
        ...(scenario.agent?.maxSteps !== undefined ? { maxSteps: scenario.agent.maxSteps } : {}),
      });
      await driveSteps(agent, scenario.steps, { runtime, modelStream });
      return undefined;
    })();
    // Whatever the abandoned run does later is no longer this report's business.
    driven.catch(() => undefined);
    interrupted = await Promise.race([driven, run.deadline.interrupted, ...(run.interrupt ? [run.interrupt] : [])]);
    // Read before disposal, which ends every turn and would hide where the run stood.
    if (interrupted)
      interrupted = {
        ...interrupted,
        message: `${interrupted.message}. Last event of each session: ${await describeLastEvents(sessionsRoot)}`,
      };
  } finally {
    run.deadline.cancel();
    if (interrupted === undefined) await runtime.dispose();
    else await disposeWithin(runtime, DISPOSE_GRACE_MS);
  }
  return interrupted;
}

/** Disposes, but gives up after `ms` (a tool that never settles may hold disposal forever). The timer is ref'd on purpose: the grace must elapse. */
async function disposeWithin(runtime: { dispose(): Promise<void> }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    runtime.dispose().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
