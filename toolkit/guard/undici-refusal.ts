import { requestEscape, type EscapeSink } from './network-escape.js';

/**
 * Where Node's fetch and the npm `undici` package find the dispatcher every request goes through:
 * undici up to 6 (Node 20's fetch, the npm package this repository pins) reads `.1`; undici 7 and
 * later (Node 26's fetch) read `.2` and keep `.1` as a wrapper for older copies. Both are refused.
 */
const GLOBAL_DISPATCHERS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];

interface Dispatcher {
  dispatch(
    options: { origin?: string | URL; path?: string; method?: string },
    handler: Record<string, unknown>,
  ): boolean;
}

export interface UndiciRefusal {
  disarm(): void;
}

/** A dispatcher in front of `original` that refuses, names and records every request `guard` does not allow. */
function refusingDispatcher(guard: EscapeSink, original: Dispatcher | undefined): Dispatcher {
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
  return original ? (Object.setPrototypeOf(refusing, original as object) as Dispatcher) : refusing;
}

/**
 * Puts a dispatcher in front of undici's global one that refuses every request the guard does not
 * allow. msw sees fetch and node:http; this catches what goes around them: `undici.request`,
 * `undici.fetch` and clients built on them, imported before or after the guard, and a worker
 * thread's fetch (msw is not armed there), and names the request. What bypasses the global
 * dispatcher (an explicit `Client` or `Agent`, a dispatcher set later with `setGlobalDispatcher`)
 * still ends at a socket: see connect-refusal.ts.
 */
export function armUndiciRefusal(guard: EscapeSink): UndiciRefusal {
  const slot = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // Node creates its default agent on first use; a data: fetch makes it exist now, synchronously.
  if (GLOBAL_DISPATCHERS.every((key) => slot[key] === undefined)) void fetch('data:,').catch(() => undefined);
  const armed = GLOBAL_DISPATCHERS.filter((key) => key === GLOBAL_DISPATCHERS[0] || slot[key] !== undefined).map(
    (key) => {
      const original = slot[key];
      const wrapped = refusingDispatcher(guard, original);
      slot[key] = wrapped;
      return { key, original, wrapped };
    },
  );
  return {
    disarm() {
      for (const { key, original, wrapped } of armed) if (slot[key] === wrapped) slot[key] = original;
    },
  };
}
