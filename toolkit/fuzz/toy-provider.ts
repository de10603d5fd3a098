import type fc from 'fast-check';
import { SubagentError } from '../../providers/seam/errors.js';
import { NO_START_CAPABILITIES, type ResolvedStartRequest, type SubagentProvider, type SubagentResult, type SubagentRun } from '../../providers/seam/types.js';
import type { ChildOutcome } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import type { LiveThing } from './types.js';

/** The one thing each broken variant gets wrong; `null` is the correct provider. */
export type ToyFlaw =
  | 'announces-end-early'
  | 'leaks-when-cancelled-before-ready'
  | 'dispose-before-child-stops'
  | 'rejects-on-child-error'
  | 'starts-when-aborted'
  | null;

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

export interface ToyProviderOptions {
  readonly scheduler: fc.Scheduler;
  readonly outcomeOf: (lineage: string) => ChildOutcome;
  readonly children: ToyChildren;
  readonly flaw?: ToyFlaw;
}

/**
 * A small provider whose "child" is an in-memory record: ready and finished when the scheduler
 * says so. Correct by default; each flaw breaks exactly one promise of the seam, to prove the
 * lifecycle suite catches it.
 */
export function createToyProvider(options: ToyProviderOptions): SubagentProvider {
  let made = 0;
  return {
    name: options.flaw ? `toy-${options.flaw}` : 'toy',
    capabilities: NO_START_CAPABILITIES,
    inheritsParentContext: false,
    start: async (request) => {
      const id = `toy-${++made}`;
      const aborted = (): SubagentError => new SubagentError('ABORTED', `toy child ${request.lineage} was cancelled before it was ready`);
      if (request.signal.aborted && options.flaw !== 'starts-when-aborted') throw aborted();
      const outcome = options.outcomeOf(request.lineage);
      options.children.add(request.lineage, id);
      await options.scheduler.schedule(Promise.resolve(), `toy ${request.lineage}: ready`);
      if (outcome === 'fail-start') {
        options.children.remove(id);
        throw new SubagentError('START_FAILED', `toy child ${request.lineage} failed to start, as scripted`);
      }
      if (request.signal.aborted && options.flaw !== 'starts-when-aborted') {
        if (options.flaw !== 'leaks-when-cancelled-before-ready') options.children.remove(id);
        throw aborted();
      }
      return new ToyRun(id, request, outcome, options);
    },
  };
}

class ToyRun implements SubagentRun {
  private readonly settled: Promise<SubagentResult>;
  private settle!: (result: SubagentResult) => void;
  private fail!: (error: Error) => void;
  private done = false;
  private disposal: Promise<void> | undefined;
  private early: Promise<SubagentResult> | undefined;

  constructor(
    readonly id: string,
    private readonly request: ResolvedStartRequest,
    outcome: ChildOutcome,
    private readonly options: ToyProviderOptions,
  ) {
    this.settled = new Promise<SubagentResult>((resolve, reject) => {
      this.settle = (result) => {
        this.done = true;
        resolve(result);
      };
      this.fail = (error) => {
        this.done = true;
        reject(error);
      };
    });
    request.signal.addEventListener('abort', () => this.cancel('the request signal was aborted'), { once: true });
    if (request.signal.aborted) this.cancel('the request signal was aborted');
    if (outcome !== 'hang') void this.finish(outcome);
  }

  get result(): Promise<SubagentResult> {
    // The flawed variant hands its first reader (the service) a result of its own, settled at once.
    if (this.options.flaw === 'announces-end-early' && this.early === undefined) {
      this.early = Promise.resolve({ output: 'announced early', stopReason: 'completed' });
      return this.early;
    }
    return this.settled;
  }

  cancel(reason = 'toy run cancelled'): void {
    if (!this.done) this.settle({ output: 'partial', stopReason: 'aborted', diagnostic: reason });
  }

  dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      this.cancel('toy run disposed');
      await this.settled.catch(() => undefined);
      if (this.options.flaw === 'dispose-before-child-stops') {
        const stops = this.options.scheduler.schedule(Promise.resolve(), `toy ${this.request.lineage}: child stops, after dispose resolved`);
        void stops.then(() => this.options.children.remove(this.id));
        return;
      }
      this.options.children.remove(this.id);
    })());
  }

  private async finish(outcome: ChildOutcome): Promise<void> {
    await this.options.scheduler.schedule(Promise.resolve(), `toy ${this.request.lineage}: child finishes (${outcome})`);
    if (this.done) return;
    if (outcome !== 'child-error') return this.settle({ output: 'done', stopReason: 'completed' });
    if (this.options.flaw === 'rejects-on-child-error') return this.fail(new Error(`toy child ${this.request.lineage} failed`));
    this.settle({ output: 'partial', stopReason: 'error', diagnostic: 'the toy child failed, as scripted' });
  }
}
