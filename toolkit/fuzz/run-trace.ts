import { deferred } from '../../harness/runtime/deferred.js';
import type {
  ResolvedStartRequest,
  SubagentResult,
  SubagentRun,
  SubagentStartRequest,
} from '../../providers/seam/types.js';
import type { Ask, Phase, RunPlan } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { LifecyclePromise } from './promises.js';
import type { ConcreteRefusal } from './refusal-request.js';
import type { LifecycleViolation } from './types.js';

export type Settlement<T> =
  | { readonly status: 'pending' }
  | { readonly status: 'fulfilled'; readonly value: T }
  | { readonly status: 'rejected'; readonly error: unknown };

/** Where a run is in its life, as observed: the phases of the plan, plus a start that was refused or failed. */
export type ObservedPhase = Phase | 'start-rejected';

/** A run handed out by `resume()`, observed like the first one. */
export class FollowUp {
  start: Settlement<SubagentRun> = { status: 'pending' };
  result: Settlement<SubagentResult> = { status: 'pending' };
  /** Observation order (the driver's clock) of the moment start fulfilled and the moment its result settled. */
  fulfilledAt = -1;
  settledAt = -1;
  /** Its dispose() has resolved. */
  disposed = false;
}

/**
 * Callbacks waiting for a phase, called in the very reaction that observed it (or at once, when it
 * was reached already). A start that is rejected releases every later phase's waiters too, marked so.
 */
class Milestones {
  private readonly reached = new Set<Phase>();
  private readonly waiting = new Map<Phase, (() => void)[]>();

  when(phase: Phase, callback: () => void): void {
    if (this.reached.has(phase)) return callback();
    this.waiting.set(phase, [...(this.waiting.get(phase) ?? []), callback]);
  }

  reach(phase: Phase): void {
    if (this.reached.has(phase)) return;
    this.reached.add(phase);
    const callbacks = this.waiting.get(phase) ?? [];
    this.waiting.delete(phase);
    for (const callback of callbacks) callback();
  }

  has(phase: Phase): boolean {
    return this.reached.has(phase);
  }
}

/** Everything observed about one run of a schedule, as it happened (not as the scheduler released it). */
export class RunTrace {
  readonly controller = new AbortController();
  readonly milestones = new Milestones();
  /** Set when `subagents.start` was called: what held at that moment. */
  calledWith: {
    readonly aborted: boolean;
    readonly providerRemoved: boolean;
    readonly parentDisposed: boolean;
  } | null = null;
  /** What the provider's start() received, and its JSON at that moment. */
  received: { readonly request: ResolvedStartRequest; readonly json: string } | null = null;
  /** The promise the provider's start() returned has settled (observed natively). */
  providerStartSettled = false;
  /** ...and fulfilled: a rejection of `subagents.start` after this came from announcing the run. */
  providerFulfilled = false;
  start: Settlement<SubagentRun> = { status: 'pending' };
  result: Settlement<SubagentResult> = { status: 'pending' };
  /** Observation order of the moment the result settled. */
  settledAt = -1;
  /** JSON of the result the moment the caller got it, to prove nothing could change it later. */
  resultSnapshot: string | null = null;
  /** A cancel, abort, dispose or parent teardown was issued before the result settled. */
  interrupted = false;
  /** The first interrupt that was not a dispose (cancel, signal, teardown), while the result was pending. */
  interruptedBy: { readonly how: 'cancel' | 'signal'; readonly phase: ObservedPhase } | null = null;
  /** The signal was aborted while start was still pending (provider called, nothing settled). */
  abortedDuringStart = false;
  /** The parent agent was disposed while this run's start was pending. */
  parentGoneDuringStart = false;
  /** Text the fixture said the child streamed, and what of it had streamed when the first interrupt came. */
  readonly streamed: string[] = [];
  streamedBeforeInterrupt: string[] | null = null;
  /** Steering messages the provider accepted (sendMessage returned) and the phase they were sent in. */
  readonly steered: { readonly text: string; readonly phase: ObservedPhase }[] = [];
  readonly followUps: FollowUp[] = [];
  /** The first dispose() of this run has resolved. */
  disposed = false;
  readonly violations: LifecycleViolation[] = [];
  /** Resolves when the suite stops waiting for a result that dispose() left pending (a violation already). */
  readonly givenUp: Promise<void>;
  private readonly givingUp = deferred<void>();

  constructor(
    readonly index: number,
    readonly plan: RunPlan,
    readonly spawnedBy: string,
    readonly lineage: string,
    /** Set when the plan makes this a request the service must refuse. */
    readonly refusal: ConcreteRefusal | null,
    /** The request path it takes (its capability advertised), and the fields that ask for it. */
    readonly ask: { readonly ask: Ask; readonly fields: Partial<SubagentStartRequest> } | null = null,
  ) {
    this.givenUp = this.givingUp.promise;
  }

  get name(): string {
    return `run ${this.spawnedBy}`;
  }

  giveUp(): void {
    this.givingUp.resolve();
    this.milestones.reach('mid-stream');
    this.milestones.reach('after-settle');
  }

  /** The phase the run is in right now. */
  get phase(): ObservedPhase {
    if (this.calledWith === null) return 'before-start';
    if (this.start.status === 'rejected') return 'start-rejected';
    if (this.start.status === 'pending') return 'during-start';
    if (this.result.status !== 'pending') return 'after-settle';
    return this.milestones.has('mid-stream') ? 'mid-stream' : 'after-ready';
  }

  /** Started (or starting) and not yet disposed: it may legitimately own something. */
  get mayOwnSomething(): boolean {
    if (this.followUps.some((followUp) => followUp.start.status !== 'rejected' && !this.disposed)) return true;
    return this.start.status === 'pending'
      ? this.calledWith !== null
      : this.start.status === 'fulfilled' && !this.disposed;
  }

  interrupt(how?: 'cancel' | 'signal'): void {
    if (this.result.status !== 'pending') return;
    this.interrupted = true;
    this.streamedBeforeInterrupt ??= [...this.streamed];
    if (how !== undefined && this.interruptedBy === null) this.interruptedBy = { how, phase: this.phase };
  }

  violate(promise: LifecyclePromise, message: string): void {
    this.violations.push({ promise, message: `${this.name}: ${message}` });
  }
}
