import { createMockProvider } from '../../../providers/mock/mock-provider.js';
import { mockScript } from '../../../providers/mock/mock-script.js';
import type { MockBehaviour } from '../../../providers/mock/mock-behaviour.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import type { LiveThing, ProviderFactory } from '../types.js';

/** Readiness and results on a real (zero-delay) timer, so an abort can land during start-up. */
const BEHAVIOUR: Record<ChildOutcome, MockBehaviour> = {
  complete: { kind: 'succeed', output: 'done', readyAfterMs: 0, afterMs: 0 },
  'child-error': { kind: 'error', output: 'partial', diagnostic: 'scripted child error', readyAfterMs: 0, afterMs: 0 },
  hang: { kind: 'hang', output: 'partial', readyAfterMs: 0 },
  'fail-start': { kind: 'fail-start', afterMs: 0 },
};

/** The mock provider, scripted per run from the schedule; the script's alive count is what it owns. */
export const mockFactory: ProviderFactory = {
  name: 'mock',
  create: ({ outcomeOf, streamed, scheduler }) => {
    const script = mockScript((request) => BEHAVIOUR[outcomeOf(request.lineage)]);
    const provider = createMockProvider({ script });
    return {
      // A mock child holds its (partial) output from the moment it is ready; the scheduler says when the suite hears of it.
      provider: {
        ...provider,
        start: async (request) => {
          const run = await provider.start(request);
          const outcome = outcomeOf(request.lineage);
          const text = outcome === 'complete' ? 'done' : 'partial';
          void scheduler
            .schedule(Promise.resolve(), `mock ${request.lineage}: first chunk`)
            .then(() => streamed(request.lineage, text));
          return run;
        },
      },
      alive: () =>
        Array.from({ length: script.alive }, (_, index): LiveThing => ({
          kind: 'other',
          id: `mock start-up or run #${index + 1}`,
        })),
    };
  },
};
