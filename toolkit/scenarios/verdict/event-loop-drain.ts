import { deferred } from '../../../harness/runtime/deferred.js';
import type { Interruption } from './interruption.js';

/**
 * Interrupts with SCENARIO_STALLED when the process's event loop drains while the scenario is
 * still running: nothing is left that could ever settle it (a tool's promise nobody resolves), and
 * Node would otherwise exit 0 in silence with the scenarios after it never run. Process-wide:
 * one scenario at a time per process (a worker runner uses one per worker).
 */
export function watchEventLoopDrain(): { readonly interrupted: Promise<Interruption>; readonly dispose: () => void } {
  const { promise, resolve: settle } = deferred<Interruption>();
  const onDrain = () =>
    settle({
      code: 'SCENARIO_STALLED',
      message:
        'stopped with nothing left to wait on (the event loop drained): some promise of the scenario, a tool or a provider is never settled',
    });
  process.on('beforeExit', onDrain);
  return { interrupted: promise, dispose: () => void process.off('beforeExit', onDrain) };
}

/** Rejects with `error()` if the event loop drains before `work` settles (a module whose top-level await never settles). */
export async function failOnDrain<T>(work: Promise<T>, error: () => Error): Promise<T> {
  const watch = watchEventLoopDrain();
  try {
    return await Promise.race([
      work,
      watch.interrupted.then((): never => {
        throw error();
      }),
    ]);
  } finally {
    watch.dispose();
  }
}
