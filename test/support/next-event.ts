import type { EventBus } from '../../harness/runtime/event-bus.js';

/**
 * Resolves with the payload of the next `event` on `bus` that `match` accepts, then stops
 * listening. Listen before acting, so an event emitted during the act is not missed; the
 * listeners registered earlier have all run by the time it resolves.
 */
export function nextEvent<Events extends object, K extends keyof Events>(
  bus: EventBus<Events>,
  event: K,
  match: (payload: Events[K]) => boolean = () => true,
): Promise<Events[K]> {
  return new Promise((resolve) => {
    const stop = bus.on(event, (payload) => {
      if (!match(payload)) return;
      stop();
      resolve(payload);
    });
  });
}
