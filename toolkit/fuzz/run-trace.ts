import type { SubagentResult, SubagentRun } from '../../providers/seam/types.js';
import type { RunPlan } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { ConcreteRefusal } from './refusal-request.js';
import type { LifecycleViolation } from './types.js';

export type Settlement<T> = { readonly status: 'pending' } | { readonly status: 'fulfilled'; readonly value: T } | { readonly status: 'rejected'; readonly error: unknown };

/** Everything observed about one run of a schedule, as it happened (not as the scheduler released it). */
export class RunTrace {
  readonly controller = new AbortController();
  /** Set when `subagents.start` was called: what held at that moment. */
  calledWith: { readonly aborted: boolean; readonly providerRemoved: boolean } | null = null;
  start: Settlement<SubagentRun> = { status: 'pending' };
  result: Settlement<SubagentResult> = { status: 'pending' };
  /** JSON of the result the moment the caller got it, to prove listeners could not change it later. */
  resultSnapshot: string | null = null;
  /** A cancel, abort, dispose or parent teardown was issued before the result settled. */
  interrupted = false;
  /** The first dispose() of this run has resolved. */
  disposed = false;
  readonly violations: LifecycleViolation[] = [];

  constructor(
    readonly index: number,
    readonly plan: RunPlan,
    readonly spawnedBy: string,
    readonly lineage: string,
    /** Set when the plan makes this a request the service must refuse. */
    readonly refusal: ConcreteRefusal | null,
  ) {}

  get name(): string {
    return `run ${this.spawnedBy}`;
  }

  /** Started (or starting) and not yet disposed: it may legitimately own something. */
  get mayOwnSomething(): boolean {
    return this.start.status === 'pending' ? this.calledWith !== null : this.start.status === 'fulfilled' && !this.disposed;
  }

  interrupt(): void {
    if (this.result.status === 'pending') this.interrupted = true;
  }

  violate(promise: string, message: string): void {
    this.violations.push({ promise, message: `${this.name}: ${message}` });
  }
}
