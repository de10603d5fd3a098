import { deferred } from '../../harness/runtime/deferred.js';
import type { SubagentResult, SubagentRun } from '../seam/types.js';
import type { MockBehaviour } from './mock-behaviour.js';

type RunBehaviour = Exclude<MockBehaviour, { kind: 'fail-start' }>;

/** A scripted run: settles as its behaviour says; a cancel settles it `aborted` (unless told to ignore it for a while). */
export class MockRun implements SubagentRun {
  readonly result: Promise<SubagentResult>;
  private readonly outcome = deferred<SubagentResult>();
  private settled = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private disposal: Promise<void> | undefined;
  private cancelRequested = false;

  constructor(
    readonly id: string,
    private readonly behaviour: RunBehaviour,
    signal: AbortSignal,
    private readonly release: () => void,
  ) {
    this.result = this.outcome.promise;
    const onAbort = (): void => this.cancel('the request signal was aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    void this.result.catch(() => undefined).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else this.play();
  }

  cancel(reason = 'mock run cancelled'): void {
    if (this.settled || this.cancelRequested) return;
    this.cancelRequested = true;
    const aborted = (): void => this.settle({ output: this.partial(), stopReason: 'aborted', diagnostic: reason });
    if (this.behaviour.kind === 'ignore-cancel') this.after(this.behaviour.forMs, aborted);
    else aborted();
  }

  dispose(): Promise<void> {
    return (this.disposal ??= (async () => {
      if (this.behaviour.kind === 'leak') return;
      this.cancel('mock run disposed');
      await this.result.catch(() => undefined);
      for (const timer of this.timers) clearTimeout(timer);
      this.release();
    })());
  }

  private play(): void {
    const b = this.behaviour;
    switch (b.kind) {
      case 'succeed':
        return this.after(b.afterMs, () =>
          this.settle({
            output: b.output ?? '',
            ...(b.structured !== undefined ? { structured: b.structured } : {}),
            stopReason: 'completed',
          }),
        );
      case 'error':
        return this.after(b.afterMs, () =>
          this.settle({
            output: b.output ?? '',
            stopReason: b.stopReason ?? 'error',
            ...(b.diagnostic !== undefined ? { diagnostic: b.diagnostic } : {}),
          }),
        );
      case 'crash':
        return this.after(b.afterMs, () => this.fail(new Error(b.message ?? `mock run ${this.id} crashed`)));
      case 'hang':
      case 'ignore-cancel':
      case 'leak':
        return;
    }
  }

  private partial(): string {
    return 'output' in this.behaviour ? (this.behaviour.output ?? '') : '';
  }

  private after(ms: number | undefined, action: () => void): void {
    if (ms === undefined) return action();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private settle(result: SubagentResult): void {
    if (this.settled) return;
    this.settled = true;
    this.outcome.resolve(result);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.outcome.reject(error);
  }
}
