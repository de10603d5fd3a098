import { deferred } from '../../harness/runtime/deferred.js';
import type fc from 'fast-check';
import { SubagentError } from '../../providers/seam/errors.js';
import {
  NO_START_CAPABILITIES,
  type ResolvedStartRequest,
  type SubagentProvider,
  type SubagentResult,
  type SubagentRun,
} from '../../providers/seam/types.js';
import type { ChildOutcome } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { FixtureContext, LiveThing, ProviderFactory } from './types.js';

/** Children a toy provider has alive, by lineage: what its fixture reports to the suite. */
export class ToyChildren {
  private readonly alive = new Map<string, string>();

  add(lineage: string, id: string): void {
    this.alive.set(id, lineage);
  }

  remove(id: string): void {
    this.alive.delete(id);
  }

  things(): LiveThing[] {
    return [...this.alive].map(([id, lineage]) => ({ kind: 'other', id, lineage }));
  }
}

export interface ToyContext extends Pick<FixtureContext, 'outcomeOf' | 'streamed' | 'steered'> {
  readonly scheduler: fc.Scheduler;
  readonly children: ToyChildren;
}

/**
 * A small, correct provider whose "child" is an in-memory record that becomes ready, streams a
 * first chunk and finishes when the scheduler says so; it offers `sendMessage` (heard at the
 * child's next step) and `resume`. Each step of its contract is a method, so a broken variant in
 * `mutants/` overrides exactly one to prove the lifecycle suite catches that flaw.
 */
export class ToyProvider implements SubagentProvider {
  readonly capabilities = NO_START_CAPABILITIES;
  readonly inheritsParentContext = false;
  private made = 0;

  constructor(
    readonly ctx: ToyContext,
    readonly name = 'toy',
  ) {}

  async start(request: ResolvedStartRequest): Promise<SubagentRun> {
    if (this.abortedBeforeReady(request)) throw this.aborted(request);
    const outcome = this.ctx.outcomeOf(request.lineage);
    const id = `toy-${++this.made}`;
    this.ctx.children.add(request.lineage, id);
    await this.ctx.scheduler.schedule(Promise.resolve(), `toy ${request.lineage}: ready`);
    if (outcome === 'fail-start') {
      this.releaseFailedStart(id);
      throw new SubagentError('START_FAILED', `toy child ${request.lineage} failed to start, as scripted`);
    }
    if (this.abortedBeforeReady(request)) {
      this.releaseCancelledStart(id);
      throw this.aborted(request);
    }
    if (this.parentGone(request)) {
      this.ctx.children.remove(id);
      throw new SubagentError(
        'PARENT_DISPOSED',
        `toy child ${request.lineage}: its parent was disposed during start-up`,
      );
    }
    return this.makeRun(id, request, outcome);
  }

  protected abortedBeforeReady(request: ResolvedStartRequest): boolean {
    return request.signal.aborted;
  }

  protected parentGone(request: ResolvedStartRequest): boolean {
    return request.parent.disposed;
  }

  protected releaseFailedStart(id: string): void {
    this.ctx.children.remove(id);
  }

  protected releaseCancelledStart(id: string): void {
    this.ctx.children.remove(id);
  }

  protected makeRun(id: string, request: ResolvedStartRequest, outcome: ChildOutcome): SubagentRun {
    return new ToyRun(id, request, outcome, this.ctx);
  }

  private aborted(request: ResolvedStartRequest): SubagentError {
    return new SubagentError('ABORTED', `toy child ${request.lineage} was cancelled before it was ready`);
  }
}

export class ToyRun implements SubagentRun {
  protected readonly settled: Promise<SubagentResult>;
  protected done = false;
  /** What the child has streamed so far: a cancel keeps it. */
  protected streamedText = '';
  protected disposal: Promise<void> | undefined;
  protected handedOver = false;
  protected resuming = false;
  private readonly ending = deferred<SubagentResult>();

  constructor(
    readonly id: string,
    protected readonly request: ResolvedStartRequest,
    protected readonly outcome: ChildOutcome,
    protected readonly ctx: ToyContext,
    /**
     * Steering the child has not heard yet. The child's, not the turn's: what a cut-short turn
     * never heard, the follow-up from `resume` hears (the harness logs it into the session).
     */
    protected readonly steering: string[] = [],
  ) {
    this.settled = this.ending.promise;
    this.listen();
    this.catchUpOnAbort();
    if (outcome !== 'fail-start') void this.play();
  }

  get result(): Promise<SubagentResult> {
    return this.settled;
  }

  cancel(reason = 'toy run cancelled'): void {
    this.stop(reason);
  }

  sendMessage(content: string): void {
    if (this.done)
      throw new SubagentError('BUSY', `toy child ${this.request.lineage} has finished its turn; resume it to say more`);
    this.steering.push(content);
  }

  async resume(content: string, signal: AbortSignal): Promise<SubagentRun> {
    if (this.resuming || this.handedOver)
      throw new SubagentError('BUSY', `toy child ${this.request.lineage} is already being resumed`);
    this.resuming = true;
    try {
      await this.settled.catch(() => undefined);
      if (this.disposal) throw new SubagentError('INVALID_REQUEST', `toy child ${this.request.lineage} is disposed`);
      if (signal.aborted)
        throw new SubagentError('ABORTED', `resume of toy child ${this.request.lineage} was cancelled`);
      this.handedOver = true;
      return this.followUp(content, signal);
    } finally {
      this.resuming = false;
    }
  }

  dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      this.stop('toy run disposed');
      await this.settled.catch(() => undefined);
      if (!this.handedOver) this.release();
    })());
  }

  protected followUp(content: string, signal: AbortSignal): SubagentRun {
    return new ToyRun(this.id, { ...this.request, prompt: content, signal }, this.outcome, this.ctx, this.steering);
  }

  private readonly onAbort = (): void => this.stop('the request signal was aborted');

  protected listen(): void {
    this.request.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The run is over: nothing of it stays on the caller's signal. */
  protected unlisten(): void {
    this.request.signal.removeEventListener('abort', this.onAbort);
  }

  /** The signal may have aborted before this run existed (during start-up): the run starts cancelled. */
  protected catchUpOnAbort(): void {
    if (this.request.signal.aborted) this.stop('the request signal was aborted during start-up');
  }

  /** Settles the run `aborted` (cancel, the signal and dispose all come here). */
  protected stop(reason: string): void {
    if (!this.done) this.settle(this.abortedResult(reason));
  }

  protected abortedResult(reason: string): SubagentResult {
    return { output: this.streamedText, stopReason: 'aborted', diagnostic: reason };
  }

  protected release(): void {
    this.ctx.children.remove(this.id);
  }

  /** The steering the child's next step hears. */
  protected deliverSteering(): void {
    for (const message of this.steering.splice(0)) this.ctx.steered(this.request.lineage, message);
  }

  protected settle(result: SubagentResult): void {
    if (this.done) return;
    this.done = true;
    this.unlisten();
    this.ending.resolve(result);
  }

  protected fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.unlisten();
    this.ending.reject(error);
  }

  protected finalResult(): SubagentResult {
    switch (this.outcome) {
      case 'child-error':
        return { output: this.streamedText, stopReason: 'error', diagnostic: 'the toy child failed, as scripted' };
      case 'max-tokens':
      case 'refusal':
        return {
          output: this.streamedText,
          stopReason: this.outcome,
          diagnostic: `the toy child's turn ended ${this.outcome}, as scripted`,
        };
      default:
        return { output: `${this.streamedText} done`, stopReason: 'completed' };
    }
  }

  private async play(): Promise<void> {
    const { scheduler } = this.ctx;
    const lineage = this.request.lineage;
    await scheduler.schedule(Promise.resolve(), `toy ${lineage}: first chunk`);
    if (this.done) return;
    this.streamedText = 'partial';
    this.ctx.streamed(lineage, 'partial');
    if (this.outcome === 'hang') return;
    await scheduler.schedule(Promise.resolve(), `toy ${lineage}: child finishes (${this.outcome})`);
    if (this.done) return;
    this.deliverSteering();
    this.finish();
  }

  protected finish(): void {
    this.settle(this.finalResult());
  }
}

/** A factory for a toy provider: the correct one, or (from `mutants/`) one with a flaw. */
export function toyFactory(
  name = 'toy',
  make: (ctx: ToyContext) => SubagentProvider = (ctx) => new ToyProvider(ctx, name),
): ProviderFactory {
  return {
    name,
    create: ({ scheduler, outcomeOf, streamed, steered }: FixtureContext) => {
      const children = new ToyChildren();
      return {
        provider: make({ scheduler, outcomeOf, streamed, steered, children }),
        alive: () => children.things(),
        hearsSteering: true,
      };
    },
  };
}
