import { vi } from 'vitest';

/**
 * Runs `body` on a fake clock (`setTimeout`, `clearTimeout` and `Date`, so code that measures
 * elapsed time agrees with its timers): the test moves time on with `vi.advanceTimersByTimeAsync`
 * instead of waiting for it, so what it sees depends on the timers the code set, not on how fast
 * the machine is. The timers left run before the real clock is back.
 */
export async function onFakeClock<T>(body: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    return await body();
  } finally {
    await vi.runAllTimersAsync();
    vi.useRealTimers();
  }
}

/** Whether `promise` settles (either way) while the fake clock of `onFakeClock` moves `ms` on. */
export async function settlesWithin(ms: number, promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}
