import { createMockProvider } from '../../../providers/mock/mock-provider.js';
import { mockScript } from '../../../providers/mock/mock-script.js';
import type { MockBehaviour } from '../../../providers/mock/mock-behaviour.js';
import { ALL_START_CAPABILITIES } from '../../../providers/seam/types.js';
import type { Ask, ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { VALID_ANSWER } from '../asks.js';
import type { LiveThing, ProviderFactory } from '../types.js';

/** Readiness and results on a real (zero-delay) timer, so an abort can land during start-up. */
const BEHAVIOUR: Record<ChildOutcome, MockBehaviour> = {
  complete: { kind: 'succeed', output: 'done', readyAfterMs: 0, afterMs: 0 },
  'child-error': { kind: 'error', output: 'partial', diagnostic: 'scripted child error', readyAfterMs: 0, afterMs: 0 },
  'max-tokens': {
    kind: 'error',
    stopReason: 'max-tokens',
    output: 'partial',
    diagnostic: 'scripted token limit',
    readyAfterMs: 0,
    afterMs: 0,
  },
  refusal: {
    kind: 'error',
    stopReason: 'refusal',
    output: 'partial',
    diagnostic: 'scripted refusal',
    readyAfterMs: 0,
    afterMs: 0,
  },
  hang: { kind: 'hang', output: 'partial', readyAfterMs: 0 },
  'fail-start': { kind: 'fail-start', afterMs: 0 },
};

/** What a completing mock child does on an output-schema path: report the valid answer, or end `error` on an invalid one. */
function completing(ask: Ask | null): MockBehaviour {
  if (ask === 'output-schema-valid')
    return { kind: 'succeed', output: 'done', structured: VALID_ANSWER, readyAfterMs: 0, afterMs: 0 };
  if (ask === 'output-schema-invalid')
    return {
      kind: 'error',
      output: 'done',
      diagnostic: 'the answer did not match the output schema',
      readyAfterMs: 0,
      afterMs: 0,
    };
  return BEHAVIOUR.complete;
}

/**
 * The mock provider, scripted per run from the schedule; the script's alive count is what it owns.
 * A mock child runs no tools, so it cannot show a tool filter at work: it does not advertise one.
 */
export const mockFactory: ProviderFactory = {
  name: 'mock',
  create: ({ outcomeOf, askOf, streamed, scheduler }) => {
    const script = mockScript((request) => {
      const outcome = outcomeOf(request.lineage);
      return outcome === 'complete' ? completing(askOf(request.lineage)) : BEHAVIOUR[outcome];
    });
    const provider = createMockProvider({ script, capabilities: { ...ALL_START_CAPABILITIES, toolFilter: false } });
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
