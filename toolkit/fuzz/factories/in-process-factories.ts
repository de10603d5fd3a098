import { createForkProvider } from '../../../providers/fork/fork-provider.js';
import { createSpawnProvider } from '../../../providers/spawn/spawn-provider.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import type { ProviderFactory } from '../types.js';
import { scheduledModel } from './scheduled-model.js';

/** In-process children cannot be scripted to fail start-up; cancel-before-ready and teardown make start fail instead. */
const IN_PROCESS_OUTCOMES: readonly ChildOutcome[] = ['complete', 'child-error', 'max-tokens', 'refusal', 'hang'];

/** The spawn provider, its children talking to the scheduled model. */
export const spawnFactory: ProviderFactory = {
  name: 'spawn',
  outcomes: IN_PROCESS_OUTCOMES,
  create: ({ runtime, scheduler, outcomeOf, askOf, streamed, steered }) => {
    runtime.llm.register(scheduledModel(scheduler, outcomeOf, { streamed, steered }, askOf));
    return { provider: createSpawnProvider(runtime), hearsSteering: true };
  },
};

/** The fork provider, seeded from the delegating parent's completed turn, its children talking to the scheduled model. */
export const forkFactory: ProviderFactory = {
  name: 'fork',
  outcomes: IN_PROCESS_OUTCOMES,
  create: ({ runtime, scheduler, outcomeOf, askOf, streamed, steered }) => {
    runtime.llm.register(scheduledModel(scheduler, outcomeOf, { streamed, steered }, askOf));
    return { provider: createForkProvider(runtime), hearsSteering: true };
  },
};
