import type { EventBus } from '../../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../../harness/runtime/events.js';
import { createMemoryLogger } from '../../../harness/runtime/logger.js';
import { Runtime } from '../../../harness/runtime.js';
import { subagentsService } from '../../../providers/seam/subagent-service.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';

type Listener = (payload: unknown) => unknown;

/** A bus that contains a failing listener but then stops: the listeners after it never hear the event. */
function stopAtFirstFailure(events: EventBus<HarnessEvents>): void {
  const listeners = (events as unknown as { listeners: Map<string, Set<Listener>> }).listeners;
  events.emit = ((event: string, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        const returned = listener(payload);
        if (returned instanceof Promise) returned.catch(() => undefined);
      } catch {
        return;
      }
    }
  }) as EventBus<HarnessEvents>['emit'];
}

export default mutant(
  import.meta.url,
  'an event bus that stops calling later listeners after a failing one',
  'later-listeners-run',
  {
    create: toyFactory().create,
    createRuntime: async (sessionsRoot) => {
      const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
      stopAtFirstFailure(runtime.events);
      await runtime.use(subagentsService);
      return runtime;
    },
  },
);
