import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type fc from 'fast-check';
import type { Agent } from '../../harness/agents/agent.js';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime.js';
import { requireSubagents, subagentsService } from '../../providers/seam/subagent-service.js';
import { outcomeOfLineage, type LifecycleSchedule } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import { checkSchedule } from './check-schedule.js';
import type { CoverageCell } from './coverage.js';
import { createDelegatingParent } from './parent-fixture.js';
import { ResourceTracker } from './resource-tracker.js';
import { ScheduleDriver } from './schedule-driver.js';
import type { SubagentCapabilities } from '../../providers/seam/types.js';
import { checkFixture } from './factory-keys.js';
import type { LifecycleViolation, ProviderFactory, ProviderFixture } from './types.js';

export interface ScheduleEnv {
  /** This schedule's own directory (sessions root and scratch go inside). */
  readonly dir: string;
  readonly timeoutMs: number;
  readonly settleWaitMs: number;
}

export interface ScheduleOutcome {
  readonly violations: LifecycleViolation[];
  readonly cells: ReadonlySet<CoverageCell>;
  /** The provider's registered capabilities, and whether a run it handed over offered steering / resume. */
  readonly capabilities: SubagentCapabilities | undefined;
  readonly offers: { readonly steer: boolean; readonly resume: boolean };
}

/** How long handles may take to close after everything was disposed (a child's pipes close just after it exits). */
const HANDLE_GRACE_MS = 250;

/** Runs one schedule against a fresh fixture and returns every broken promise it saw, and the cells it reached. */
export async function runSchedule(
  factory: ProviderFactory,
  schedule: LifecycleSchedule,
  s: fc.Scheduler,
  env: ScheduleEnv,
): Promise<ScheduleOutcome> {
  const scratch = join(env.dir, 'scratch');
  await mkdir(scratch, { recursive: true });
  // Everything the schedule creates, however deep, is counted by Node from here: whatever is left, it leaked.
  const tracker = new ResourceTracker();
  try {
    const { violations, driver, finished } = await tracker.run(() => driveSchedule(factory, schedule, s, env, scratch));
    if (finished) {
      const left = await tracker.leftAfter(HANDLE_GRACE_MS);
      if (left.length > 0) {
        violations.push({
          promise: 'nothing-alive-after-dispose',
          message: `after every run was disposed and the runtime closed, still alive of what the schedule created: ${left.join(', ')} (timers referenced or not, processes, pipes, sockets; measured by Node's async_hooks, not reported by the provider)`,
        });
      }
    }
    return {
      violations,
      cells: driver?.cells ?? new Set(),
      capabilities: driver?.capabilities,
      offers: driver?.offers ?? { steer: false, resume: false },
    };
  } finally {
    tracker.stop();
  }
}

async function driveSchedule(
  factory: ProviderFactory,
  schedule: LifecycleSchedule,
  s: fc.Scheduler,
  env: ScheduleEnv,
  scratch: string,
): Promise<{ violations: LifecycleViolation[]; driver: ScheduleDriver | undefined; finished: boolean }> {
  const runtime = factory.createRuntime
    ? await factory.createRuntime(join(env.dir, 'sessions'))
    : await defaultRuntime(join(env.dir, 'sessions'));
  let fixture: ProviderFixture | undefined;
  let driver: ScheduleDriver | undefined;
  const violations: LifecycleViolation[] = [];
  let finished: boolean;
  try {
    const subagents = requireSubagents(runtime, 'the lifecycle conformance suite');
    const parent = await createDelegatingParent(runtime, scratch, schedule.parent);
    const deep = schedule.runs.some((run) => run.refusal === 'unsafe-depth')
      ? await deepParent(runtime, scratch)
      : undefined;
    fixture = await factory.create({
      runtime,
      scheduler: s,
      scratch,
      outcomeOf: (lineage) => outcomeOfLineage(lineage) ?? 'complete',
      askOf: (lineage) => driver?.askOf(lineage) ?? null,
      streamed: (lineage, text) => driver?.streamed(lineage, text),
      steered: (lineage, text) => driver?.steered(lineage, text),
    });
    checkFixture(factory, fixture);
    driver = new ScheduleDriver(s, runtime, subagents, { parent, deep }, fixture, schedule, env.settleWaitMs);
    const driven = await driver.drive(env.timeoutMs);
    finished = driven.length === 0;
    violations.push(
      ...driven,
      ...(await checkSchedule({ runtime, parents: [parent, ...(deep ? [deep] : [])], fixture, driver })),
    );
  } finally {
    await fixture?.close?.();
    await runtime.dispose();
  }
  return { violations, driver, finished };
}

async function defaultRuntime(sessionsRoot: string): Promise<Runtime> {
  const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
  await runtime.use(subagentsService);
  return runtime;
}

/** A parent at the deepest safe depth: its child's depth would not be a safe integer. */
async function deepParent(runtime: Runtime, cwd: string): Promise<Agent> {
  const session = await runtime.sessions.create({ lineage: 'deep', cwd, delegationDepth: Number.MAX_SAFE_INTEGER });
  return runtime.agents.create({ session });
}
