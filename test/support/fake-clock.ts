import { vi } from 'vitest';

/**
 * Runs `body` on a fake clock (`setTimeout` and `clearTimeout` only): the test moves time on with
 * `vi.advanceTimersByTimeAsync` instead of waiting for it, so what it sees depends on the timers
 * the code set, not on how fast the machine is. The timers left run before the real clock is back.
 */
export async function onFakeClock<T>(body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    return await body();
  } finally {
    await vi.runAllTimersAsync();
    vi.useRealTimers();
  }
}

/** Whether `promise` has settled (either way), as of the last microtask that ran. */
export function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}
