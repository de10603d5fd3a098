import type fc from 'fast-check';
import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime.js';
import type { SubagentService } from '../../providers/seam/subagent-service.js';
import {
  ALL_START_CAPABILITIES,
  type ChildAgentOptions,
  type ResolvedStartRequest,
  type SubagentCapabilities,
  type SubagentProvider,
  type SubagentResult,
  type SubagentRun,
  type SubagentStartRequest,
} from '../../providers/seam/types.js';
import {
  runSpawnedBy,
  type Ask,
  type LifecycleSchedule,
  type TimedAct,
} from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { NewSessionEvent, SessionEvent } from '../../harness/session/types.js';
import { taskTools } from '../../harness/tasks/task-tools.js';
import { subagentTool } from '../../providers/tool/subagent-tool.js';
import { BACKGROUND_TOOL, BackgroundDelegation } from './background-delegation.js';
import { askFields, DENIED_TOOL } from './asks.js';
import type { Act, CoverageCell } from './coverage.js';
import { codeOf, describeError } from '../../harness/error-text.js';
import { recordLifecycle, type LifecycleObservations } from './lifecycle-recorder.js';
import { leftoversOf, liveThings } from './liveness.js';
import { concreteRefusal } from './refusal-request.js';
import { FollowUp, RunTrace } from './run-trace.js';
import type { LifecycleViolation, ProviderFixture } from './types.js';

export interface DriverParents {
  /** The delegating agent every run starts from. */
  readonly parent: Agent;
  /** A parent at depth `Number.MAX_SAFE_INTEGER`, for `unsafe-depth` refusals; made only when a schedule needs it. */
  readonly deep: Agent | undefined;
}

/** The JSON of what a provider received, without the parent agent and signal (which are live objects). */
function requestJson(request: ResolvedStartRequest): string {
  const { parent: _parent, signal: _signal, ...plain } = request;
  return JSON.stringify(plain);
}

/** What the caller handed `subagents.start`: its keys and plain fields (the options the suite itself edits aside). */
export function callerJson(request: SubagentStartRequest): string {
  const { parent: _parent, signal: _signal, agentOptions: _options, toolFilter: _filter, ...plain } = request;
  return JSON.stringify({ ...plain, keys: Object.keys(request) });
}

/** Issues the schedule's acts at the lifecycle points it names, and records what happened natively. */
export class ScheduleDriver {
  readonly traces: RunTrace[];
  readonly observed: LifecycleObservations;
  /** `spawnedBy` of every call the service made to the provider's start. */
  readonly providerCalls: string[] = [];
  /** The phase × act cells this schedule reached. */
  readonly cells = new Set<CoverageCell>();
  /** Steering messages each lineage's model calls carried, as the fixture reported them. */
  readonly heard = new Map<string, string[]>();
  /** The caller's start-time options per run, mutated once start was called: the provider must not see the change. */
  readonly callerOptions = new Map<RunTrace, { agentOptions: { maxSteps: number } }>();
  /** The provider's capabilities before it registered: what the service must go on checking starts against. */
  readonly capabilities: SubagentCapabilities;
  /** A `provider-added` listener managed to replace the registered provider's capabilities with all of them. */
  capabilitiesWidened = false;
  /** The parent's log and options as they were before any run started: no child may change them. */
  readonly parentBefore: { readonly events: string; readonly options: string };
  /** What the parent itself appended to its log while its children ran (its own tool call and result). */
  readonly parentOwnEvents: SessionEvent[] = [];
  /** The lineage of every agent that ran DENIED_TOOL: none whose request denied it may be among them. */
  readonly deniedToolRanFor: string[] = [];
  /** Some run handed over offered `sendMessage` / `resume()`. */
  readonly offers = { steer: false, resume: false };
  /** Per `subagent/start`: the child id, and whether the runtime's agent registry resolves it to that child (in-process). */
  readonly childIds: {
    readonly lineage: string;
    readonly childId: string;
    readonly resolves: boolean;
    readonly inProcess: boolean;
  }[] = [];
  /** The request each run's caller passed to `subagents.start`, and its JSON then: it must be the same after. */
  readonly callerRequests = new Map<RunTrace, { readonly request: SubagentStartRequest; readonly json: string }>();
  /** The schedule's delegation through the subagent tool in background mode, if it draws one. */
  readonly background: BackgroundDelegation | null;
  private clock = 0;
  private providerRemoved = false;
  private readonly providerName: string;
  private readonly removeProvider: () => void;
  private readonly byLineage = new Map<string, RunTrace>();

  constructor(
    private readonly s: fc.Scheduler,
    private readonly runtime: Runtime,
    private readonly subagents: SubagentService,
    private readonly parents: DriverParents,
    private readonly fixture: ProviderFixture,
    readonly schedule: LifecycleSchedule,
    private readonly settleWaitMs: number,
  ) {
    this.observed = recordLifecycle(runtime.events, { start: schedule.startListener, end: schedule.endListener });
    this.capabilities = { ...fixture.provider.capabilities };
    this.parentBefore = {
      events: JSON.stringify(parents.parent.session.events),
      options: JSON.stringify(parents.parent.options),
    };
    runtime.events.on('subagent/start', (info) => {
      const inProcess = runtime.agents.list().some((agent) => agent.lineage === info.lineage);
      const resolves = runtime.agents.get(info.childId)?.lineage === info.lineage;
      this.childIds.push({ lineage: info.lineage, childId: info.childId, resolves, inProcess });
    });
    runtime.tools.register<Record<string, never>>({
      name: DENIED_TOOL,
      description: 'A tool every toolFilter request of the lifecycle suite denies.',
      parameters: { type: 'object', properties: {} },
      execute: (_args, { lineage }) => {
        this.deniedToolRanFor.push(lineage);
        return 'ran';
      },
    });
    this.traces = schedule.runs.map((plan, index) => {
      const spawnedBy = runSpawnedBy(index, plan.outcome);
      const refusal = plan.refusal === null ? null : concreteRefusal(plan.refusal, this.capabilities, index);
      const parent = refusal?.deepParent && parents.deep ? parents.deep : parents.parent;
      const fields = refusal === null ? askFields(plan.ask, this.capabilities, parent.depth + 1) : null;
      const ask = fields === null ? null : { ask: plan.ask as Ask, fields };
      const trace = new RunTrace(index, plan, spawnedBy, `${parent.lineage}/${spawnedBy}`, refusal, ask);
      this.byLineage.set(trace.lineage, trace);
      return trace;
    });
    this.background = schedule.background && new BackgroundDelegation(schedule.background, parents.parent);
    const provider = fixture.provider;
    const counted: SubagentProvider = Object.create(provider, {
      start: {
        value: (request: ResolvedStartRequest) => {
          this.providerCalls.push(request.spawnedBy);
          const trace = this.byLineage.get(request.lineage);
          if (trace) trace.received = { request, json: requestJson(request) };
          const pending = provider.start(request);
          if (request.lineage === this.background?.lineage)
            this.background.observe(Promise.resolve(pending), request.signal);
          if (trace) {
            // Registered first, so it runs before any check queued by an act at this point.
            Promise.resolve(pending).then(
              () => void ((trace.providerStartSettled = true), (trace.providerFulfilled = true)),
              () => void (trace.providerStartSettled = true),
            );
            // The provider's start-up has begun: acts "during start-up" land here.
            trace.milestones.reach('during-start');
          }
          return pending;
        },
      },
    }) as SubagentProvider;
    this.providerName = provider.name;
    const widen = runtime.events.on('subagent/provider-added', (added) => {
      // A listener that tries to grant every capability once the provider is registered: the service must not honour it.
      if (added === counted) this.capabilitiesWidened = Reflect.set(added, 'capabilities', ALL_START_CAPABILITIES);
    });
    try {
      this.removeProvider = subagents.registerProvider(counted);
    } finally {
      widen();
    }
  }

  /** What the fixture reports through its context, routed to the run it is about. */
  streamed(lineage: string, text: string): void {
    const trace = this.byLineage.get(lineage);
    if (trace === undefined) return;
    trace.streamed.push(text);
    if (trace.milestones.has('after-ready')) trace.milestones.reach('mid-stream');
  }

  steered(lineage: string, text: string): void {
    this.heard.set(lineage, [...(this.heard.get(lineage) ?? []), text]);
  }

  /** The request path the run with this lineage takes (a child on a sibling's lineage is not the suite's). */
  askOf(lineage: string): Ask | null {
    return this.byLineage.get(lineage)?.ask?.ask ?? null;
  }

  /** Another run of this schedule was live (handed over, its result pending) at this moment. */
  private siblingLive(trace: RunTrace): boolean {
    return this.traces.some(
      (other) => other !== trace && other.start.status === 'fulfilled' && other.result.status === 'pending',
    );
  }

  async drive(timeoutMs: number): Promise<LifecycleViolation[]> {
    if (this.background) await this.loadBackgroundTools();
    const work = Promise.all([
      ...this.traces.map((trace) => this.driveRun(trace)),
      this.teardown(),
      this.removal(),
      this.parentToolCall(),
      this.delegateInBackground(),
    ]);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const outcome = await this.s.waitFor(Promise.race([work.then(() => 'done' as const), timedOut]));
      this.listenerCells();
      if (outcome === 'done') return [];
      const pending = this.s
        .report()
        .filter((item) => item.status === 'pending')
        .map((item) => item.label);
      const stuck = this.traces
        .filter(
          (t) => t.start.status === 'pending' || (t.start.status === 'fulfilled' && t.result.status === 'pending'),
        )
        .map((t) => t.name);
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

  /** A faulty listener counts as reached once its event was emitted at least once. */
  private listenerCells(): void {
    const { startListener, endListener } = this.schedule;
    const heard = this.observed.lastListener;
    if (startListener.fault !== 'none' && heard.start > 0)
      this.cells.add(`listener-${startListener.fault}@${startListener.placement}`);
    if (endListener.fault !== 'none' && heard.end > 0)
      this.cells.add(`listener-${endListener.fault}@${endListener.placement}`);
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

  /** Fires `fire` once `trace` reaches the act's phase: in that very reaction, or on a scheduler step after it. */
  private when(
    trace: RunTrace,
    act: TimedAct,
    name: Act,
    label: string,
    fire: () => unknown,
    fallback?: Promise<unknown>,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let fired = false;
      const reached = (): void => {
        if (fired) return;
        fired = true;
        const run = (): void => {
          const phase = trace.phase;
          if (phase !== 'start-rejected') this.cells.add(`${name}@${phase}`);
          try {
            Promise.resolve(fire()).then(() => resolve(), reject);
          } catch (error) {
            reject(error);
          }
        };
        if (act.timing === 'at') return run();
        this.gate(`${label} (after ${act.phase})`).then(run, reject);
      };
      trace.milestones.when(act.phase, reached);
      fallback?.then(reached, reject);
    });
  }

  private async driveRun(trace: RunTrace): Promise<void> {
    const { plan } = trace;
    trace.milestones.reach('before-start');
    const abortAct = plan.abort;
    const abort = abortAct
      ? this.when(trace, abortAct, 'abort', `${trace.name}: abort its request signal`, () =>
          this.abortRun(trace, 'the owner aborted it'),
        )
      : undefined;
    if (abortAct?.phase === 'before-start') await abort;
    await this.gate(
      `${trace.name}: call subagents.start (${trace.refusal ? `refusable: ${trace.refusal.description}` : plan.outcome})`,
    );
    const started = this.callStart(trace);
    let run: SubagentRun;
    try {
      run = await this.released(started, `${trace.name}: caller sees start settle`, () => 'a ready run');
    } catch {
      await abort;
      return;
    }
    const owned = run;
    if (owned.sendMessage) this.offers.steer = true;
    if (owned.resume) this.offers.resume = true;
    const result = Promise.race([
      this.released(owned.result, `${trace.name}: caller sees the result`).catch(() => undefined),
      trace.givenUp,
    ]);
    const acts: Promise<unknown>[] = [result];
    if (abort) acts.push(abort);
    if (plan.cancel) {
      acts.push(
        this.when(trace, plan.cancel, 'cancel', `${trace.name}: run.cancel()`, () => {
          trace.interrupt('cancel');
          this.harmless(trace, 'cancel', () => owned.cancel('fuzz: cancelled by the owner'));
        }),
      );
    }
    if (plan.steer && owned.sendMessage)
      acts.push(
        this.when(trace, plan.steer, 'steer', `${trace.name}: run.sendMessage()`, () => this.steer(trace, owned)),
      );
    const resume = plan.resume;
    if (resume && owned.resume) {
      const act: Act = resume.calls === 'once' ? 'resume' : 'resume-concurrently';
      acts.push(
        this.when(
          trace,
          resume,
          act,
          `${trace.name}: run.resume()${resume.calls === 'once' ? '' : ' twice at once'}`,
          () =>
            Promise.all(
              Array.from({ length: resume.calls === 'once' ? 1 : 2 }, (_, n) => this.followUp(trace, owned, n)),
            ),
        ),
      );
    }
    const dispose = (): Promise<void> => this.disposeChecked(trace, owned, 'dispose()');
    const { calls } = plan.dispose;
    const act: Act = calls === 'once' ? 'dispose-once' : calls === 'twice' ? 'dispose-twice' : 'dispose-concurrently';
    const disposeLabel = `${trace.name}: dispose()${calls === 'once' ? '' : calls === 'twice' ? ' #1' : ' twice at once'}`;
    // A child that runs until cancelled may never stream or settle: its owner disposes it anyway, when the scheduler says.
    // Any other child settles on its own, however slow its provider (a child process takes seconds to start):
    // disposing it early would keep a slow provider from ever reaching its result's paths.
    const fallback =
      plan.dispose.phase === 'after-ready' || plan.outcome !== 'hang'
        ? undefined
        : this.gate(`${disposeLabel}, should ${plan.dispose.phase} not come`);
    acts.push(
      this.when(
        trace,
        plan.dispose,
        act,
        disposeLabel,
        async () => {
          if (calls === 'once') return dispose();
          if (calls === 'concurrently') return Promise.all([dispose(), dispose()]);
          await dispose();
          await this.gate(`${trace.name}: dispose() #2`);
          return dispose();
        },
        fallback,
      ),
    );
    await Promise.all(acts);
  }

  private callStart(trace: RunTrace): Promise<SubagentRun> {
    const parent = trace.refusal?.deepParent && this.parents.deep ? this.parents.deep : this.parents.parent;
    trace.calledWith = {
      aborted: trace.controller.signal.aborted,
      providerRemoved: this.providerRemoved,
      parentDisposed: parent.disposed,
    };
    const caller = { agentOptions: { maxSteps: 16 } };
    this.callerOptions.set(trace, caller);
    const toolFilter = trace.refusal === null && this.capabilities.toolFilter ? { deny: [DENIED_TOOL] } : undefined;
    const request: SubagentStartRequest = {
      prompt: `fuzz task for ${trace.spawnedBy}`,
      parent,
      signal: trace.controller.signal,
      spawnedBy: trace.spawnedBy,
      label: trace.spawnedBy,
      agentOptions: caller.agentOptions as ChildAgentOptions,
      ...(toolFilter ? { toolFilter } : {}),
      ...trace.ask?.fields,
      ...trace.refusal?.fields,
    };
    this.callerRequests.set(trace, { request, json: callerJson(request) });
    const started = this.subagents.start(this.providerName, request);
    // The caller changes its options once start has the request: the provider must have taken a copy.
    caller.agentOptions.maxSteps = 1;
    if (toolFilter) toolFilter.deny.length = 0;
    started.then(
      (run) => {
        trace.start = { status: 'fulfilled', value: run };
        trace.milestones.reach('during-start');
        trace.milestones.reach('after-ready');
        if (trace.streamed.length > 0) trace.milestones.reach('mid-stream');
        run.result.then(
          (value) => this.settled(trace, { status: 'fulfilled', value }),
          (error: unknown) => this.settled(trace, { status: 'rejected', error }),
        );
      },
      (error: unknown) => {
        trace.start = { status: 'rejected', error };
        const left = leftoversOf(trace, this.traces, this.alive(), this.background?.mayOwnSomething ?? false);
        if (left !== null)
          trace.violate(
            'rejected-start-releases-everything',
            `start rejected (${describeError(error)}) but left alive: ${left}`,
          );
        for (const phase of ['during-start', 'after-ready', 'mid-stream', 'after-settle'] as const)
          trace.milestones.reach(phase);
      },
    );
    return started;
  }

  private settled(trace: RunTrace, result: RunTrace['result']): void {
    trace.result = result;
    trace.settledAt = ++this.clock;
    if (result.status === 'fulfilled') trace.resultSnapshot = JSON.stringify(result.value);
    trace.milestones.reach('mid-stream');
    trace.milestones.reach('after-settle');
  }

  private alive() {
    return liveThings(
      this.runtime,
      [this.parents.parent, ...(this.parents.deep ? [this.parents.deep] : [])],
      this.fixture,
    );
  }

  /** Calls a run method the contract says is always safe; a throw is a broken promise, not a crash of the suite. */
  private harmless(trace: RunTrace, what: string, call: () => void): void {
    const when = trace.phase;
    try {
      call();
    } catch (error) {
      trace.violate(
        when === 'after-settle' ? 'cancel-after-settle-harmless' : 'cancel-never-throws',
        `run.${what}() threw ${describeError(error)} (${when}); cancel must be harmless at any time`,
      );
    }
  }

  private steer(trace: RunTrace, run: SubagentRun): void {
    const text = `fuzz steering for ${trace.spawnedBy} #${trace.steered.length + 1}`;
    const phase = trace.phase;
    if (this.siblingLive(trace)) this.cells.add('path:steer-beside-a-live-sibling');
    try {
      run.sendMessage?.(text);
      trace.steered.push({ text, phase });
    } catch (error) {
      if (codeOf(error) === undefined) {
        trace.violate(
          'steering-delivered-or-refused',
          `sendMessage() (${phase}) threw an untyped ${describeError(error)}; a refusal must be a typed error with a code`,
        );
      }
    }
  }

  /** One `resume()`: observed like a start, then disposed by the suite like any run it owns. */
  private async followUp(trace: RunTrace, run: SubagentRun, n: number): Promise<void> {
    const followUp = new FollowUp();
    trace.followUps.push(followUp);
    if (this.siblingLive(trace)) this.cells.add('path:resume-beside-a-live-sibling');
    let next: SubagentRun;
    try {
      next = await (run.resume as NonNullable<SubagentRun['resume']>).call(
        run,
        `fuzz follow-up ${n + 1} for ${trace.spawnedBy}`,
        new AbortController().signal,
      );
    } catch (error) {
      followUp.start = { status: 'rejected', error };
      if (codeOf(error) === undefined)
        trace.violate('resume-refusals-typed', `resume() rejected with an untyped ${describeError(error)}`);
      return;
    }
    followUp.start = { status: 'fulfilled', value: next };
    followUp.fulfilledAt = ++this.clock;
    const result = next.result.then(
      (value: SubagentResult) => {
        followUp.result = { status: 'fulfilled', value };
        followUp.settledAt = ++this.clock;
      },
      (error: unknown) => {
        followUp.result = { status: 'rejected', error };
        followUp.settledAt = ++this.clock;
      },
    );
    await this.gate(`${trace.name}: dispose the run resume() #${n + 1} returned`);
    try {
      await next.dispose();
    } catch (error) {
      trace.violate('dispose-resolves', `dispose() of the run from resume() rejected: ${describeError(error)}`);
      return;
    }
    if (followUp.result.status === 'pending')
      trace.violate(
        'dispose-settles-result',
        'dispose() of the run from resume() resolved while its result was still pending',
      );
    followUp.disposed = true;
    this.checkReleased(trace, `dispose() of the run from resume() #${n + 1}`);
    await result;
  }

  private async disposeChecked(trace: RunTrace, run: SubagentRun, what: string): Promise<void> {
    if (trace.interruptedBy !== null && trace.result.status === 'pending') await this.settleOrGiveUp(trace);
    trace.interrupt();
    try {
      await run.dispose();
    } catch (error) {
      trace.violate(
        'dispose-resolves',
        `${what} rejected: ${describeError(error)}; dispose must resolve, and be idempotent`,
      );
      return;
    }
    if (trace.result.status === 'pending') {
      trace.violate('dispose-settles-result', `${what} resolved while the run result was still pending`);
      // Nothing will settle it now: stop waiting for it, so the schedule ends with this violation rather than a timeout.
      trace.giveUp();
    }
    trace.disposed = true;
    this.checkReleased(trace, what);
  }

  /**
   * Once the run and every run resume() handed out from it are disposed, nothing of the child may
   * be alive. (A resume still pending owns nothing yet: it must fail on a disposed run.)
   */
  private checkReleased(trace: RunTrace, what: string): void {
    if (
      !trace.disposed ||
      trace.followUps.some((followUp) => followUp.start.status === 'fulfilled' && !followUp.disposed)
    )
      return;
    const left = leftoversOf(trace, this.traces, this.alive(), this.background?.mayOwnSomething ?? false);
    if (left !== null) trace.violate('dispose-leaves-nothing-alive', `${what} resolved while still alive: ${left}`);
  }

  /** A cancelled or aborted run must settle on its own; waits for it (bounded) before the dispose that would force it. */
  private async settleOrGiveUp(trace: RunTrace): Promise<void> {
    const by = trace.interruptedBy;
    const result = trace.start.status === 'fulfilled' ? trace.start.value.result : undefined;
    if (by === null || result === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>(
      (resolve) => (timer = setTimeout(() => resolve('gave up'), this.settleWaitMs)),
    );
    const outcome = await Promise.race([
      result.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      gaveUp,
    ]);
    clearTimeout(timer);
    if (outcome === 'gave up') {
      const how = by.how === 'cancel' ? 'run.cancel()' : 'the aborted request signal';
      trace.violate(
        'cancel-and-signal-settle-result',
        `${how} (${by.phase}) left the result pending for ${this.settleWaitMs} ms; only dispose() would have settled it (signal and cancel must each settle it \`aborted\`)`,
      );
    }
  }

  /**
   * Marks `trace` if its provider's start-up was really still pending: a start() that finished
   * synchronously has settled its promise already, which a microtask later tells.
   */
  private ifStillStarting(trace: RunTrace, mark: (trace: RunTrace) => void): void {
    if (trace.phase !== 'during-start' || trace.received === null) return;
    queueMicrotask(() => {
      if (!trace.providerStartSettled) mark(trace);
    });
  }

  private abortRun(trace: RunTrace, reason: string): void {
    this.ifStillStarting(trace, (t) => void (t.abortedDuringStart = true));
    trace.interrupt('signal');
    trace.controller.abort(reason);
  }

  private async teardown(): Promise<void> {
    const plan = this.schedule.parentTeardown;
    const first = this.traces[0];
    if (plan === null || first === undefined) return;
    const act: Act = plan.mode === 'abort-and-dispose' ? 'parent-teardown' : 'parent-dispose-only';
    const label =
      plan.mode === 'abort-and-dispose'
        ? 'parent teardown: abort every request signal, dispose the parent agent'
        : 'dispose the parent agent (signals untouched)';
    await this.when(first, plan, act, label, () => {
      for (const trace of this.traces) {
        this.ifStillStarting(trace, (t) => void (t.parentGoneDuringStart = true));
        if (plan.mode === 'abort-and-dispose') this.abortRun(trace, 'parent teardown');
      }
      return this.parents.parent.dispose();
    });
  }

  /**
   * The parent makes its own tool call while its children run, as a real parent does: it answers
   * its delegation call and calls one more tool. Only these events may join its log.
   */
  private async parentToolCall(): Promise<void> {
    const plan = this.schedule.parentToolCall;
    const first = this.traces[0];
    if (plan === null || first === undefined) return;
    await this.when(
      first,
      plan,
      'parent-tool-call',
      'the parent answers its delegation call and calls a tool of its own',
      () => {
        const { session } = this.parents.parent;
        if (session.closed) return;
        if (this.traces.some((trace) => trace.mayOwnSomething)) this.cells.add('path:parent-own-tool-call');
        const open = session.events.findLast((event) => event.type === 'turn/start');
        const turn = open?.type === 'turn/start' ? open.data.turn : 1;
        const call = { type: 'tool-call' as const, id: 'call_own', name: 'read', arguments: '{}' };
        const own: NewSessionEvent[] = [
          { type: 'tool/result', data: { turn, step: 1, id: 'call_delegate', output: 'delegated', isError: false } },
          { type: 'step/end', data: { turn, step: 1, finish: 'tool-calls' } },
          { type: 'step/start', data: { turn, step: 2 } },
          { type: 'assistant/message', data: { turn, step: 2, content: [call] } },
          { type: 'tool/call', data: { turn, step: 2, id: 'call_own', name: 'read', args: {} } },
          { type: 'tool/result', data: { turn, step: 2, id: 'call_own', output: 'two packages', isError: false } },
        ];
        for (const event of own) this.parentOwnEvents.push(session.append(event));
      },
    );
  }

  /** The subagent tool bound to the provider under test (its depth cap only where the provider takes one), and the task tools. */
  private async loadBackgroundTools(): Promise<void> {
    await this.runtime.use(subagentTool, {
      provider: this.providerName,
      toolName: BACKGROUND_TOOL,
      maxDepth: this.capabilities.maxDepth ? 3 : 'provider-managed',
    });
    for (const tool of taskTools(this.runtime.tasks))
      if (!this.runtime.tools.has(tool.name)) this.runtime.tools.register(tool);
  }

  private async delegateInBackground(): Promise<void> {
    const background = this.background;
    if (background === null) return;
    await this.gate('the parent delegates in the background through the subagent tool');
    await background.drive(
      this.runtime,
      () => this.providerRemoved,
      (label) => this.gate(label),
      this.settleWaitMs,
    );
    if (background.reached !== null) background.checkReleased(this.alive());
    if (background.path !== null) this.cells.add(background.path);
  }

  private async removal(): Promise<void> {
    const plan = this.schedule.removeProvider;
    const first = this.traces[0];
    if (plan === null || first === undefined) return;
    await this.when(first, plan, 'remove-provider', 'remove the provider from the subagents service', () => {
      this.providerRemoved = true;
      this.removeProvider();
    });
  }
}
