/**
 * `promise`'s value, or `undefined` once `ms` have passed without it. The timer is cleared as soon
 * as `promise` settles, so a wait that lost its race leaves nothing behind (a `dispose()` that
 * used one resolves with no timer of it pending), and it is unreferenced, so a wait never keeps
 * the process alive.
 */
export function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms).unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

/** Resolves after `ms`, referenced on purpose: a parent must not exit while it still waits for its children's group. */
export function sleepReferenced(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
