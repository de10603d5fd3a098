import type { EventBus } from '../../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../../harness/runtime/events.js';
import { createMemoryLogger } from '../../../harness/runtime/logger.js';
import { Runtime } from '../../../harness/runtime.js';
import { subagentsService } from '../../../providers/seam/subagent-service.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';

type Listener = (payload: unknown) => unknown;

/** Contains a failing listener by logging `error instanceof Error ? error.message : String(error)`: a revoked Proxy or a throwing getter escapes. */
function naiveContainment(events: EventBus<HarnessEvents>, warn: (line: string) => void): void {
  const listeners = (events as unknown as { listeners: Map<string, Set<Listener>> }).listeners;
  events.emit = ((event: string, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        const returned = listener(payload);
        if (returned instanceof Promise) returned.catch((error: unknown) => warn(String(error)));
      } catch (error) {
        warn(`listener of ${event} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }) as EventBus<HarnessEvents>['emit'];
}

export default mutant(
  import.meta.url,
  'listener containment that a revoked Proxy or a throwing message getter escapes',
  'listener-failures-contained',
  {
    create: toyFactory().create,
    createRuntime: async (sessionsRoot) => {
      const logger = createMemoryLogger();
      const runtime = new Runtime({ sessionsRoot, logger });
      naiveContainment(runtime.events, logger.warn);
      await runtime.use(subagentsService);
      return runtime;
    },
  },
);
