import { SubagentError } from '../seam/errors.js';
import type { ResolvedStartRequest } from '../seam/types.js';
import { mockBehaviourProblem, type MockBehaviour } from './mock-behaviour.js';

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

  /** A queue (one behaviour per start, in order) or a function choosing per request. A behaviour it cannot play is refused (INVALID_CONFIG). */
  constructor(script: readonly MockBehaviour[] | MockChooser) {
    this.queue = typeof script === 'function' ? [] : [...script];
    this.queue.forEach((behaviour, index) => checked(behaviour, `behaviour ${index + 1}`));
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
    const call = this.requests.length;
    const behaviour = this.chooser
      ? checked(this.chooser(request, call), `the chooser's behaviour for start #${call}`)
      : (this.queue.shift() ?? {
          kind: 'fail-start',
          message: `the mock script has no behaviour left for start #${call}`,
        });
    this.aliveCount++;
    return behaviour;
  }

  /** @internal the provider's side: one start-up or run released everything. */
  released(): void {
    this.aliveCount--;
  }
}

function checked(behaviour: MockBehaviour, where: string): MockBehaviour {
  const problem = mockBehaviourProblem(behaviour);
  if (problem !== undefined) throw new SubagentError('INVALID_CONFIG', `mock script: ${where}: ${problem}`);
  return behaviour;
}

export const mockScript = (script: readonly MockBehaviour[] | MockChooser): MockScript => new MockScript(script);
