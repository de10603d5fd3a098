import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type fc from 'fast-check';
import type { Agent } from '../../harness/agents/agent.js';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime/runtime.js';
import { requireSubagents, subagentsService, type SubagentService } from '../../providers/seam/subagent-service.js';
import type { SubagentProvider, SubagentRun, SubagentStartRequest } from '../../providers/seam/types.js';
import { outcomeOfLineage, runSpawnedBy, type LifecycleSchedule } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import { checkSchedule } from './check-schedule.js';
import { describeError } from './describe-error.js';
import { recordLifecycle, type LifecycleRecord } from './lifecycle-recorder.js';
import { leftoversOf, liveThings } from './liveness.js';
import { createDelegatingParent } from './parent-fixture.js';
import { concreteRefusal } from './refusal-request.js';
import { RunTrace } from './run-trace.js';
import type { LifecycleViolation, ProviderFactory, ProviderFixture } from './types.js';

export interface ScheduleEnv {
  /** This schedule's own directory (sessions root and scratch go inside). */
  readonly dir: string;
  readonly timeoutMs: number;
}

/** Runs one schedule against a fresh fixture and returns every broken promise it saw. */
export async function runSchedule(factory: ProviderFactory, schedule: LifecycleSchedule, s: fc.Scheduler, env: ScheduleEnv): Promise<LifecycleViolation[]> {
  const scratch = join(env.dir, 'scratch');
  await mkdir(scratch, { recursive: true });
  const runtime = factory.createRuntime ? await factory.createRuntime(join(env.dir, 'sessions')) : await defaultRuntime(join(env.dir, 'sessions'));
  let fixture: ProviderFixture | undefined;
  try {
    const subagents = requireSubagents(runtime, 'the lifecycle conformance suite');
    const parent = await createDelegatingParent(runtime, scratch);
    fixture = await factory.create({ runtime, scheduler: s, scratch, outcomeOf: (lineage) => outcomeOfLineage(lineage) ?? 'complete' });
    const driver = new ScheduleDriver(s, runtime, subagents, parent, fixture, schedule);
    const violations = await driver.drive(env.timeoutMs);
    return [...violations, ...(await checkSchedule({ runtime, parent, fixture, traces: driver.traces, records: driver.records, calls: driver.providerCalls }))];
  } finally {
    await fixture?.close?.();
    await runtime.dispose();
  }
}

async function defaultRuntime(sessionsRoot: string): Promise<Runtime> {
  const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
  await runtime.use(subagentsService);
  return runtime;
}

/** Issues the schedule's actions, each released by the scheduler, and records what happened natively. */
class ScheduleDriver {
  readonly traces: RunTrace[];
  readonly records: LifecycleRecord[];
  /** `spawnedBy` of every call the service made to the provider's start. */
  readonly providerCalls: string[] = [];
  private providerRemoved = false;
  private readonly providerName: string;
  private readonly removeProvider: () => void;

  constructor(
    private readonly s: fc.Scheduler,
    private readonly runtime: Runtime,
    private readonly subagents: SubagentService,
    private readonly parent: Agent,
    private readonly fixture: ProviderFixture,
    private readonly schedule: LifecycleSchedule,
  ) {
    this.records = recordLifecycle(runtime.events, { start: schedule.startListener, end: schedule.endListener });
    this.traces = schedule.runs.map((plan, index) => {
      const spawnedBy = runSpawnedBy(index, plan.outcome);
      const refusal = plan.refusal === null ? null : concreteRefusal(plan.refusal, fixture.provider.capabilities, index);
      return new RunTrace(index, plan, spawnedBy, `${parent.lineage}/${spawnedBy}`, refusal);
    });
    const provider = fixture.provider;
    const calls = this.providerCalls;
    const counted: SubagentProvider = Object.create(provider, {
      start: { value: (request: Parameters<SubagentProvider['start']>[0]) => (calls.push(request.spawnedBy), provider.start(request)) },
    }) as SubagentProvider;
    this.providerName = provider.name;
    this.removeProvider = subagents.registerProvider(counted);
  }

  async drive(timeoutMs: number): Promise<LifecycleViolation[]> {
    const work = Promise.all([...this.traces.map((trace) => this.driveRun(trace)), this.teardown(), this.removal()]);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const outcome = await this.s.waitFor(Promise.race([work.then(() => 'done' as const), timedOut]));
      if (outcome === 'done') return [];
      const pending = this.s.report().filter((item) => item.status === 'pending').map((item) => item.label);
      const stuck = this.traces.filter((t) => t.start.status === 'pending' || (t.start.status === 'fulfilled' && t.result.status === 'pending')).map((t) => t.name);
      return [
        {
          promise: 'schedule-finishes',
          message: `the schedule did not finish within ${timeoutMs} ms: ${stuck.join(', ') || 'no run'} still pending (start or result); scheduler steps never released: ${pending.join('; ') || 'none'}`,
        },
      ];
    } finally {
      clearTimeout(timer);
    }
  }

  private gate(label: string): Promise<unknown> {
    return this.s.schedule(Promise.resolve(), label);
  }

  /**
   * `promise`'s outcome, handed to the caller when the scheduler says so. Scheduled only once it
   * has settled natively: releasing a still-pending task would block every other release.
   */
  private released<T>(promise: Promise<T>, label: string, show: (value: T) => unknown = (value) => value): Promise<T> {
    return promise.then(
      (value) => this.s.schedule(Promise.resolve(show(value)), label).then(() => value),
      (error: unknown) =>
        this.gate(`${label}: rejected ${describeError(error)}`).then(() => {
          throw error;
        }),
    );
  }

  private async driveRun(trace: RunTrace): Promise<void> {
    const { plan } = trace;
    if (plan.abort === 'before-start') trace.controller.abort('aborted before start');
    const abort = plan.abort === 'any-time' ? this.gate(`${trace.name}: abort its request signal`).then(() => this.abortRun(trace, 'scheduled abort')) : undefined;
    await this.gate(`${trace.name}: call subagents.start (${trace.refusal ? `refusable: ${trace.refusal.description}` : plan.outcome})`);
    const started = this.callStart(trace);
    let run;
    try {
      run = await this.released(started, `${trace.name}: caller sees start settle`, () => 'a ready run');
    } catch {
      await abort;
      return;
    }
    const owned = run;
    const result = this.released(owned.result, `${trace.name}: caller sees the result`).catch(() => undefined);
    const cancel = plan.cancel
      ? this.gate(`${trace.name}: run.cancel()`).then(() => {
          trace.interrupt();
          owned.cancel('fuzz: cancelled by the owner');
        })
      : undefined;
    const dispose = (): Promise<void> => this.disposeChecked(trace, owned.dispose.bind(owned));
    let disposals: Promise<unknown>;
    if (plan.dispose === 'once') disposals = this.gate(`${trace.name}: dispose()`).then(dispose);
    else if (plan.dispose === 'twice') disposals = this.gate(`${trace.name}: dispose() #1`).then(dispose).then(() => this.gate(`${trace.name}: dispose() #2`)).then(dispose);
    else disposals = this.gate(`${trace.name}: dispose() twice at once`).then(() => Promise.all([dispose(), dispose()]));
    await Promise.all([result, cancel, disposals, abort]);
  }

  private callStart(trace: RunTrace): Promise<SubagentRun> {
    trace.calledWith = { aborted: trace.controller.signal.aborted, providerRemoved: this.providerRemoved };
    const request: SubagentStartRequest = {
      prompt: `fuzz task for ${trace.spawnedBy}`,
      parent: this.parent,
      signal: trace.controller.signal,
      spawnedBy: trace.spawnedBy,
      label: trace.spawnedBy,
      ...trace.refusal?.fields,
    };
    const started = this.subagents.start(this.providerName, request);
    started.then(
      (run) => {
        trace.start = { status: 'fulfilled', value: run };
        run.result.then(
          (value) => {
            trace.result = { status: 'fulfilled', value };
            trace.resultSnapshot = JSON.stringify(value);
          },
          (error: unknown) => void (trace.result = { status: 'rejected', error }),
        );
      },
      (error: unknown) => {
        trace.start = { status: 'rejected', error };
        const left = leftoversOf(trace, this.traces, liveThings(this.runtime, this.parent, this.fixture));
        if (left !== null) trace.violate('rejected-start-releases-everything', `start rejected (${describeError(error)}) but left alive: ${left}`);
      },
    );
    return started;
  }

  private async disposeChecked(trace: RunTrace, dispose: () => Promise<void>): Promise<void> {
    trace.interrupt();
    try {
      await dispose();
    } catch (error) {
      trace.violate('dispose-resolves', `dispose() rejected: ${describeError(error)}; dispose must resolve, and be idempotent`);
      return;
    }
    if (trace.result.status === 'pending') trace.violate('dispose-settles-result', 'dispose() resolved while the run result was still pending');
    const left = leftoversOf(trace, this.traces, liveThings(this.runtime, this.parent, this.fixture));
    if (left !== null) trace.violate('dispose-leaves-nothing-alive', `dispose() resolved while still alive: ${left}`);
    trace.disposed = true;
  }

  private abortRun(trace: RunTrace, reason: string): void {
    trace.interrupt();
    trace.controller.abort(reason);
  }

  private async teardown(): Promise<void> {
    if (!this.schedule.parentTeardown) return;
    await this.gate('parent teardown: abort every request signal, dispose the parent agent');
    for (const trace of this.traces) this.abortRun(trace, 'parent teardown');
    await this.parent.dispose();
  }

  private async removal(): Promise<void> {
    if (!this.schedule.removeProvider) return;
    await this.gate('remove the provider from the subagents service');
    this.providerRemoved = true;
    this.removeProvider();
  }
}
