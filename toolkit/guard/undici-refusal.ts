import { requestEscape, type EscapeSink } from './network-escape.js';

/** Where Node's fetch and the npm `undici` package both find the dispatcher every request goes through. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  dispatch(
    options: { origin?: string | URL; path?: string; method?: string },
    handler: Record<string, unknown>,
  ): boolean;
}

export interface UndiciRefusal {
  disarm(): void;
}

/**
 * Puts a dispatcher in front of undici's global one that refuses every request the guard does not
 * allow. msw sees fetch and node:http; this catches what goes around them: `undici.request`,
 * `undici.fetch` and clients built on them, imported before or after the guard, and names the
 * request. What bypasses the global dispatcher (an explicit `Client` or `Agent`, a dispatcher set
 * later with `setGlobalDispatcher`) still ends at a socket: see connect-refusal.ts.
 */
export function armUndiciRefusal(guard: EscapeSink): UndiciRefusal {
  const slot = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // Node creates its default agent on first use; a data: fetch makes it exist now, synchronously.
  if (slot[GLOBAL_DISPATCHER] === undefined) void fetch('data:,').catch(() => undefined);
  const original = slot[GLOBAL_DISPATCHER];
  const refusing: Dispatcher = {
    dispatch(options, handler) {
      const url = new URL(options.path ?? '/', options.origin ?? 'http://unknown');
      if (guard.mayLeave(url) && original) return original.dispatch(options, handler);
      guard.record(requestEscape(options.method ?? 'GET', url));
      const error = Object.assign(new Error(`nestcast network guard: ${url.origin} is not reachable during replay`), {
        code: 'NETWORK_ESCAPE',
      });
      queueMicrotask(() => {
        if (typeof handler['onResponseError'] === 'function')
          (handler['onResponseError'] as (c: unknown, e: Error) => void)({ abort() {} }, error);
        else if (typeof handler['onError'] === 'function') (handler['onError'] as (e: Error) => void)(error);
      });
      return true;
    },
  };
  // Anything else a dispatcher has (close, destroy, compose) is the original's.
  const wrapped = original ? (Object.setPrototypeOf(refusing, original as object) as Dispatcher) : refusing;
  slot[GLOBAL_DISPATCHER] = wrapped;
  return {
    disarm() {
      if (slot[GLOBAL_DISPATCHER] === wrapped) slot[GLOBAL_DISPATCHER] = original;
    },
  };
}
