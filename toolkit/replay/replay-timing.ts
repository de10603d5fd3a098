/**
 * How recorded delays are honoured: `instant` (default) ignores them, `recorded` waits each one,
 * `{scale}` waits each one multiplied (0.1 = ten times faster).
 */
export type ReplayTiming = 'instant' | 'recorded' | { readonly scale: number };

export function scaledDelay(delay: number, timing: ReplayTiming): number {
  if (timing === 'instant') return 0;
  if (timing === 'recorded') return delay;
  return Math.max(0, Math.round(delay * timing.scale));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (no signal: nothing aborts it). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves never; rejects with the signal's reason when it aborts (no signal: never settles). */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
