import type { EventBus } from '../../../harness/runtime/event-bus.js';
import type { HarnessEvents } from '../../../harness/runtime/events.js';
import { createMemoryLogger } from '../../../harness/runtime/logger.js';
import { Runtime } from '../../../harness/runtime.js';
import type { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentProvider } from '../../../providers/seam/types.js';

/** A runtime whose `subagents` service is `Service` (a broken variant of the seam's), for seam-level mutants. */
export async function runtimeWithService(
  sessionsRoot: string,
  Service: new (events: EventBus<HarnessEvents>) => SubagentService,
): Promise<Runtime> {
  const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
  await runtime.use((scope) => {
    scope.add(scope.runtime.provide('subagents', new Service(scope.runtime.events)));
  });
  return runtime;
}

/** `provider` with its `start` replaced (everything else inherited, as the service reads it). */
export function withStart(provider: SubagentProvider, start: SubagentProvider['start']): SubagentProvider {
  return Object.create(provider, { start: { value: start } }) as SubagentProvider;
}
