import type { ResolvedStartRequest } from '../seam/types.js';
import type { MockBehaviour } from './mock-behaviour.js';

export type MockChooser = (request: ResolvedStartRequest, call: number) => MockBehaviour;

/**
 * What the mock provider does, run by run, and what a test observes of it: every request it was
 * started with, and how many start-ups and runs are still alive (not yet released).
 */
export class MockScript {
  readonly requests: ResolvedStartRequest[] = [];
  private readonly queue: MockBehaviour[];
  private readonly chooser: MockChooser | undefined;
  private aliveCount = 0;

  /** A queue (one behaviour per start, in order) or a function choosing per request. */
  constructor(script: readonly MockBehaviour[] | MockChooser) {
    this.queue = typeof script === 'function' ? [] : [...script];
    this.chooser = typeof script === 'function' ? script : undefined;
  }

  /** How many times the provider's `start` was called. */
  get starts(): number {
    return this.requests.length;
  }

  /** Start-ups in progress plus runs not yet disposed (a leaking run stays counted). */
  get alive(): number {
    return this.aliveCount;
  }

  /** @internal the provider's side: records the request and picks its behaviour. */
  take(request: ResolvedStartRequest): MockBehaviour {
    this.requests.push(request);
    this.aliveCount++;
    if (this.chooser) return this.chooser(request, this.requests.length);
    return (
      this.queue.shift() ?? {
        kind: 'fail-start',
        message: `the mock script has no behaviour left for start #${this.requests.length}`,
      }
    );
  }

  /** @internal the provider's side: one start-up or run released everything. */
  released(): void {
    this.aliveCount--;
  }
}

export const mockScript = (script: readonly MockBehaviour[] | MockChooser): MockScript => new MockScript(script);
